"""The move a bot makes for a seat: `games.bots.choose_move` on that seat's view only.

Shared by the bot seats' turns (games.moves.services.bot_turns) and the "a bot plays for the absent
player" timeout policy (games.clock.services.misses.miss_deadline). The bot's seed comes from
the game's seed and the version, so replaying a game's record gives the same moves and a
task run twice would choose the same move (the version check makes the second a no-op).

Its own module: the move service and the timeout policy both call it, below both.
"""

from __future__ import annotations

import hashlib

from games import bots, engine
from games.engine.types import Move


def bot_seed(game_seed: int, version: int) -> int:
    digest = hashlib.sha256(f"bot:{game_seed}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_move(state: engine.State, seat: int, game_seed: int, version: int,
             level: str = "normal") -> Move:
    """One of the legal moves of `seat` (the seat to act), chosen from its view alone by
    the bot level of the game (`Game.bot_level`)."""
    legal = engine.legal_moves(state)
    view = engine.view(state, seat)
    return bots.choose_move(view, legal, bot_seed(game_seed, version), level=level)
