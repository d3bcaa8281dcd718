"""What a seat's lifecycle tells the features above it (games.kit.events)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.game.core.game import Game
from games.seats.core.seat import Seat


@dataclass(frozen=True)
class SeatAccepted:
    """A seat's player took it: through their own link (`by_invitation` False) or through
    the host's invitation link, whose holder never gets the player's own link. Published
    in the acceptance's transaction, with the game's row locked."""

    game: Game
    seat: Seat
    by_invitation: bool
    at: datetime
