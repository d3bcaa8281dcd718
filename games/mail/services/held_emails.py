"""An email another channel holds back (games.push: a push-only player's turn email waits
for the alert's receipt): held until a moment, sent at once, or skipped because the
other channel reached the person. Only a pending row changes: one already sent, being
sent or skipped stays as it is, so a late receipt or a second call changes nothing.
And the emails that waited for a part a feature above adds (games.mail.core.letter_parts:
the ratings' change at a round's end), sent on once it is ready."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from games.mail.core.notifications import Notification
from games.mail.services.send import release_later, send_after_commit

Status = Notification.Status


def hold_until(notification_id: int, until: datetime) -> bool:
    """Hold a pending email until `until` at least (a later hold it has stays)."""
    return Notification.objects.filter(
        Q(not_before__isnull=True) | Q(not_before__lt=until), pk=notification_id,
        status=Status.PENDING).update(not_before=until) == 1


def send_now(notification_id: int) -> bool:
    """The reason to hold it is gone (every alert failed): it goes now."""
    now = timezone.now()
    changed = Notification.objects.filter(pk=notification_id, status=Status.PENDING,
                                          not_before__gt=now).update(not_before=now) == 1
    if changed:
        send_after_commit([notification_id])
    return changed


def skip_held(notification_id: int, reason: str) -> bool:
    """The person was reached another way: the held email never goes."""
    note = Notification.objects.filter(pk=notification_id, status=Status.PENDING).first()
    if note is None:
        return False
    skipped = Notification.objects.filter(pk=note.pk, status=Status.PENDING).update(
        status=Status.SKIPPED, last_error=reason) == 1
    if skipped:  # the game's later emails to the person need not wait for it
        release_later(note, timezone.now())
    return skipped


def send_waiting(game_id: int, kinds: Iterable[str]) -> int:
    """The game's emails of these kinds that wait, unsent and due, get their send tasks
    again (a part they waited for is ready); how many."""
    now = timezone.now()
    waiting = list(Notification.objects.filter(
        Q(not_before__isnull=True) | Q(not_before__lte=now), game_id=game_id,
        kind__in=list(kinds), status=Status.PENDING).values_list("pk", flat=True))
    send_after_commit(waiting)
    return len(waiting)
