"""What a seat's lifecycle tells the features above it (games.kit.events; who listens:
games.wiring)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from games.game.core.game import Game

if TYPE_CHECKING:  # the seat publishes HolderChanged: its module imports this one
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


@dataclass(frozen=True)
class HolderChanged:
    """The seat changed hands: another person holds it (a moderator's hand-over, a
    newcomer's takeover), or a bot plays it for its person, or its person again. `before`
    and `after` are the holder's kinds (SeatKind); `seat` is as the change left it, its
    row written. `former_mailbox`: the mailbox key (games.people.core.mailboxes) of the
    address that held the seat before, the seat's own when its address stayed ("" for
    none). Published by the seat's own method, with the game's row locked, at move
    `version`."""

    game: Game
    seat: Seat
    before: str
    after: str
    version: int
    former_mailbox: str

    @property
    def to_another_person(self) -> bool:
        """Whether a person other than the one before holds the seat now (by the mailbox
        key: a `+tag` of the same address is another person, as a takeover counts them)."""
        return bool(self.seat.email) and self.seat.mailbox_key != self.former_mailbox
