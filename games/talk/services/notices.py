"""A notice: a neutral line the server writes at the table (a takeover, a pause, a nudge).

Its parameters hold only facts every seat may know (seat numbers, public names, move
numbers, hours, a moderator's note for the table); the line is worded at read time in
the reader's language."""

from __future__ import annotations

from typing import Any

from games.game.core.game import Game
from games.game.core.talk_and_notices import GameNotice


def tell_table(game: Game, kind: str, **params: Any) -> GameNotice:
    """A neutral line for every seat, placed after the log events seen so far."""
    params = {k: v for k, v in params.items() if v not in (None, "")}
    params["log_at"] = game.log_length
    return GameNotice.objects.create(game=game, version=game.version, kind=kind, params=params)
