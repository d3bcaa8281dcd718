"""A seat changed hands: the emails of its game still to go to whoever held it before
never go. Each would carry the seat's link and reply address, which are the new holder's
now; a bot playing for the seat's person, or the person back, leaves the address as it
was and nothing changes here. An email planned from seats read as the change was being
written is caught when it is sent (games.mail.services.send.skip_reason)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from games.mail.core.notifications import Notification
from games.mail.services.send import CHANGED_HANDS, release_later
from games.seats.core.seat import Seat
from games.seats.core.seat_events import HolderChanged

Status = Notification.Status
WAITING = (Status.PENDING, Status.RETRYING)


def for_former_holders(seat: Seat) -> QuerySet[Notification]:
    """The seat's emails of its game still to go to an address that does not hold it."""
    return (Notification.objects.filter(seat=seat, game_id=seat.game_id, status__in=WAITING)
            .exclude(to_key=seat.mailbox_key))


def on_holder_changed(changed: HolderChanged) -> None:
    now = timezone.now()
    for note in for_former_holders(changed.seat):
        if Notification.objects.filter(pk=note.pk, status__in=WAITING).update(
                status=Status.SKIPPED, last_error=CHANGED_HANDS):
            release_later(note, now)  # the game's later emails to them need not wait
