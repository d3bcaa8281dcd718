"""Games played to the end through the one move service, for the players' data tests."""

from __future__ import annotations

import random
from typing import Any

from games import engine
from games.game.core.game import Game
from tests.support import GameWithLinks, choose, move_for


def play_moves(g: GameWithLinks, seed: int, count: int | None = None) -> Game:
    """Play `count` moves (None: to the end) of quick-finishing choices."""
    rng = random.Random(seed)
    made = 0
    while not g.refresh().state().finished and (count is None or made < count):
        state = g.game.state()
        move_for(g.game.pk, g.game.version, choose(engine.legal_moves(state), rng))
        made += 1
    return g.refresh()


def round_ends(game: Game) -> list[dict[str, Any]]:
    return [event for event in game.state().log if event["type"] == "round_end"]
