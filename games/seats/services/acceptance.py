"""A seat's player takes it, by its accept button or its first POST through the own link,
and the features above are told (a first move takes the seat too, in the move's
transaction: games.moves.services.moves, with `Seat.accept`). What follows (the game
starts once every seat has accepted; the own link is emailed to whoever accepted through
the host's invitation) is the features' above: they listen to SeatAccepted
(games.wiring)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.game.core.game import Game
from games.kit.events import publish
from games.seats.core.seat import Seat
from games.seats.core.seat_events import SeatAccepted


def accept_seat(seat_id: int, *, by_invitation: bool = False,
                invitation_hash: str | None = None) -> Seat | None:
    """Record that the seat's player accepted (once), and tell the features above.

    The host's invitation link dies here. Of several accepts through one invitation at
    once, one takes the seat; the others get None (the invitation is used up)."""
    now = timezone.now()
    with transaction.atomic():
        game_id = Seat.objects.values_list("game_id", flat=True).get(pk=seat_id)
        game = Game.objects.select_for_update().get(pk=game_id)
        pending = Seat.objects.filter(Seat.accepted_q(accepted=False), pk=seat_id)
        if by_invitation:
            pending = Seat.objects.filter(pk=seat_id, invite_hash=invitation_hash,
                                          invite_hash__isnull=False)
        # Conditional on the seat still waiting: of two accepts at once, one updates.
        took = Seat.accept_all(pending, now)
        if by_invitation and not took:
            return None
        seat = Seat.objects.get(pk=seat_id)
        seat.game = game
        if took:
            publish(SeatAccepted(game=game, seat=seat, by_invitation=by_invitation, at=now))
    return seat

