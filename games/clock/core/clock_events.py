"""What the clock tells the features above it (games.kit.events; who listens: games.wiring).
Each is published inside the clock's transaction, with the game's row locked."""

from __future__ import annotations

from dataclasses import dataclass

from games.game.core.game import Game
from games.seats.core.seat import Seat


@dataclass(frozen=True)
class TurnNudged:
    """`by` nudged `actor`, whose turn has used more than half of its time."""

    game: Game
    actor: Seat
    by: Seat


@dataclass(frozen=True)
class PauseProposed:
    """`proposer` proposed to pause the table's clocks; `others` decide with them."""

    game: Game
    proposer: Seat
    others: list[Seat]


@dataclass(frozen=True)
class DeadlineMissed:
    """The server applied the timeout policy to turn `version` (seat `seat_id`'s)."""

    game_id: int
    version: int
    seat_id: int
