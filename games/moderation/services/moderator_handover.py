"""A moderator opens a seat to newcomers or gives an open seat to someone directly.

The handover does the work (games.handover.services); this adds what makes it a moderator's
act: the reason checked and kept with a ModeratorAction written in the same transaction."""

from __future__ import annotations

from django.contrib.auth.models import User

from games.game.core.game import Game
from games.handover.core.handover_rows import OpenSeat
from games.handover.services import opening, takeover
from games.moderation.services.acts import clean_note, clean_reason, record
from games.seats.core.seat import Seat


def open_seat(seat_id: int, *, moderator: User, reason: str, public_note: str = "") -> OpenSeat:
    """The seat looks for a new player, at a moderator's word (a bot may hold it)."""
    reason, public_note = clean_reason(reason), clean_note(public_note)

    def kept(game: Game, seat: Seat) -> None:
        record(game, moderator, "open_seat", reason, seat=seat.number)

    return opening.open_seat(seat_id, reason=OpenSeat.Reason.MODERATOR,
                             public_note=public_note, staff_record=kept)


def assign(open_seat_id: int, newcomer: takeover.Newcomer, *, moderator: User,
           reason: str) -> Seat:
    """A moderator gives the open seat to someone directly (their link goes to them)."""
    reason = clean_reason(reason)

    def kept(game: Game, seat: Seat) -> None:
        record(game, moderator, "assign_seat", reason, seat=seat.number,
               new={"name": seat.player_name, "email": seat.email})

    return takeover.take_over(open_seat_id, newcomer, staff_record=kept)
