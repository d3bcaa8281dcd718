"""A seat's player takes it: the one way a seat is accepted, by its accept button, its
first POST through the own link, or its first move (games.moves.services.moves takes it
in the move's transaction with `accept_seats`). What follows (the game starts once every
seat has accepted; the own link is emailed to whoever accepted through the host's
invitation) is the features' above: they listen to SeatAccepted (games.wiring)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.game.core.game import Game
from games.kit.events import publish
from games.seats.core.seat import Seat, accept_seats
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
        pending = Seat.objects.filter(pk=seat_id).filter(
            Q(accepted_at__isnull=True) | Q(invite_hash__isnull=False))
        if by_invitation:
            pending = Seat.objects.filter(pk=seat_id, invite_hash=invitation_hash,
                                          invite_hash__isnull=False)
        # Conditional on the seat still waiting: of two accepts at once, one updates.
        took = accept_seats(pending, now)
        if by_invitation and not took:
            return None
        seat = Seat.objects.get(pk=seat_id)
        seat.game = game
        if took:
            publish(SeatAccepted(game=game, seat=seat, by_invitation=by_invitation, at=now))
    return seat


def has_accepted(seat: Seat) -> bool:
    """Whether the seat's player has taken it (and no invitation link is left open)."""
    return seat.accepted_at is not None and seat.invite_hash is None
