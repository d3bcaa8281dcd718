"""Sending one Notification: claim it, render it, send it, record what happened.

Exactly once: a send first claims the row with a conditional UPDATE (pending or
retrying -> sending). Only one run can win that; a task delivered twice, or a second
worker, finds nothing to claim and sends nothing. A provider error puts the row back
to `retrying` with the time of the next attempt (exponential backoff: EMAIL_RETRY_SECONDS
doubled each attempt, at most an hour) and the task is retried then; an error the
provider will give again (an address it refuses, a malformed message), or running out
of attempts (EMAIL_MAX_ATTEMPTS), records the row as failed.

The one window left is a worker dying after the provider accepted a message and
before the row says so: `requeue_unsent` retries rows stuck in `sending`, so such an
email could go out twice. No provider offers idempotent sends to close it.

In order: a person reads a game's emails in the order they were planned (the invitation
before the first turn email, round 1's end before round 2's turn email), though their
send tasks may run in any order (several workers, a retry, the sweep). A row waits while
an earlier row of the same game to the same mailbox is still to go (`earlier_unsent`:
pending and due, being sent, or retrying): it goes back to pending, unclaimed, and the
earlier one, once sent, given up (failed) or skipped, queues it again
(`release_later`). An earlier row held until later (a turn email waiting to see whether
the open page plays it, quiet hours) holds nothing back, and the sweep sends whatever a
lost task left pending: nothing waits for ever.
"""

from __future__ import annotations

import logging
import smtplib
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from anymail.exceptions import AnymailAPIError, AnymailInvalidAddress, AnymailRecipientsRefused
from celery import Task, shared_task
from django.conf import settings
from django.core.mail import BadHeaderError
from django.db import InterfaceError, OperationalError, connection
from django.db.models import F, Q
from django.utils import timezone

from games.kit.after_commit import queue_on_commit
from games.mail.core import letter_parts, seen_turns
from games.mail.core.letter_registry import letter_for
from games.mail.core.message import Skip, build, message_id_for
from games.mail.core.notifications import Notification
from games.mail.services.notification_rows import create, moderator_alert, wants
from games.people.core.player_data import is_forgotten
from games.seats.core.seat import Seat

log = logging.getLogger("games.notifications")
Status = Notification.Status
MAX_RETRY_SECONDS = 3600
FORGOTTEN = "the address asked to be forgotten"
CHANGED_HANDS = "the seat changed hands"


def unsent_after() -> timedelta:
    """How long a new row may wait for its send task before the sweep sends it itself."""
    return timedelta(seconds=settings.EMAIL_UNSENT_AFTER_SECONDS)


def stuck_after() -> timedelta:
    """How old a `sending` claim must be before it counts as a dead worker's: a send never
    takes longer than the provider's timeout (EMAIL_TIMEOUT for SMTP, the same value for
    anymail's HTTP providers, settings), so a claim older than that plus a margin cannot
    belong to a send still in progress: re-sending it cannot double a live send."""
    return timedelta(seconds=settings.EMAIL_TIMEOUT + settings.EMAIL_STUCK_MARGIN_SECONDS)


@dataclass(frozen=True)
class Outcome:
    status: str  # a Notification status, or "" when there was nothing to claim
    retry_in: int | None = None


def backoff(attempt: int) -> int:
    """Seconds before attempt `attempt + 1`: the base, doubled after each failure."""
    return int(min(settings.EMAIL_RETRY_SECONDS * 2 ** max(attempt - 1, 0), MAX_RETRY_SECONDS))


def is_permanent(error: Exception) -> bool:
    """Errors that sending the same message again would only repeat: a refused address,
    and a message that cannot be built (a bad header, bad encoding)."""
    if isinstance(error, AnymailRecipientsRefused | AnymailInvalidAddress
                  | smtplib.SMTPRecipientsRefused | BadHeaderError | ValueError):
        return True
    if isinstance(error, AnymailAPIError):
        return error.status_code in (400, 413, 422)
    return isinstance(error, smtplib.SMTPDataError) and 500 <= error.smtp_code < 600


def refused_address(error: Exception) -> bool:
    return isinstance(error, AnymailRecipientsRefused | AnymailInvalidAddress
                      | smtplib.SMTPRecipientsRefused)


def claim(notification_id: int, now: datetime) -> bool:
    """Take the row to send it, if it is waiting and not held until later."""
    return Notification.objects.filter(
        Q(not_before__isnull=True) | Q(not_before__lte=now),
        pk=notification_id, status__in=[Status.PENDING, Status.RETRYING],
    ).update(status=Status.SENDING, attempts=F("attempts") + 1, claimed_at=now,
             retry_at=None) == 1


def _hold(note: Notification, until: datetime) -> Outcome:
    """Put a claimed row back, waiting until `until` (games.mail.core.seen_turns): no attempt
    was made. The game's later emails to the person need not wait for it."""
    Notification.objects.filter(pk=note.pk, status=Status.SENDING).update(
        status=Status.PENDING, not_before=until, attempts=F("attempts") - 1)
    release_later(note, timezone.now())
    return Outcome(Status.PENDING)


# Seconds between tries to record an email the provider has accepted. A database blip
# then (PgBouncer or the primary restarting) must not leave the row `sending`: the sweep
# would take it for a dead worker's and send it again (bench/chaos.py saw that happen).
RECORD_PAUSES = (0.5, 1.0, 2.0, 4.0)


def _record_sent(note: Notification, **fields: object) -> Outcome:
    """_finish(SENT), tried again on a fresh connection while the database is away for
    moments (outside a transaction only: inside one, the caller's work is lost anyway)."""
    for pause in RECORD_PAUSES:
        try:
            return _finish(note, Status.SENT, **fields)
        except (OperationalError, InterfaceError):
            if connection.in_atomic_block:
                raise
            log.warning("notification %s sent, but recording it failed: trying again", note.pk)
            connection.close()
            time.sleep(pause)
    return _finish(note, Status.SENT, **fields)


def _finish(note: Notification, status: str, **fields: object) -> Outcome:
    Notification.objects.filter(pk=note.pk, status=Status.SENDING).update(status=status, **fields)
    if status in DONE:
        release_later(note, timezone.now())
    return Outcome(status)


# ---- in the order planned ---------------------------------------------------------------

DONE = (Status.SENT, Status.FAILED, Status.SKIPPED)
TO_GO = (Status.PENDING, Status.SENDING, Status.RETRYING)


def _due(now: datetime) -> Q:
    return Q(not_before__isnull=True) | Q(not_before__lte=now)


def _same_thread(note: Notification) -> Q:
    """The rows of the same game to the same person (by mailbox key)."""
    return Q(game_id=note.game_id, to_key=note.to_key)


def earlier_unsent(note: Notification, now: datetime) -> bool:
    """Whether an email of the same game to the same person, planned before this one, is
    still to go: pending and due, being sent, or retrying (see the module)."""
    if note.game_id is None or not note.to_key:
        return False
    return Notification.objects.filter(
        _same_thread(note), _due(now) | ~Q(status=Status.PENDING), pk__lt=note.pk,
        status__in=TO_GO).exists()


def _wait_for_earlier(note: Notification) -> None:
    """Put a claimed row back, unattempted, until the earlier ones are through (or a part
    of it is ready: games.mail.core.letter_parts); pending and due, it holds the game's
    later emails to the person back."""
    Notification.objects.filter(pk=note.pk, status=Status.SENDING).update(
        status=Status.PENDING, attempts=F("attempts") - 1)


def release_later(note: Notification, now: datetime) -> None:
    """The next email of the same game to the same person that is waiting (pending and
    due) gets its send task again: it may go now that this one is through."""
    if note.game_id is None or not note.to_key:
        return
    later = (Notification.objects.filter(_same_thread(note), _due(now), pk__gt=note.pk,
                                         status=Status.PENDING)
             .order_by("pk").values_list("pk", flat=True)[:1])
    send_after_commit(later)


def skip_reason(note: Notification) -> str:
    """Why a claimed email to a seat should not go out now, or ''."""
    if is_forgotten(note.to_email):
        return FORGOTTEN
    seat = note.seat
    if seat is None or note.kind == Notification.Kind.MODERATOR_ALERT:
        return ""
    if note.game_id == seat.game_id and note.to_key != seat.mailbox_key:
        # Planned for who held the seat before (from seats read as it changed hands: the
        # change skips what was planned before it, games.mail.services.former_holders):
        # its link and reply address are the new holder's now.
        return CHANGED_HANDS
    if not wants(seat, note.kind):
        return f"the player's email setting is {seat.email_mode}"
    if seat.email_problem_at is not None and note.kind != Notification.Kind.INVITATION:
        return "the address bounced or complained (see the seat)"
    return ""


def deliver(notification_id: int, *, looked_again: bool = False) -> Outcome:
    """Claim, render and send one notification, after the earlier ones of its game to the
    same person. Safe to call any number of times."""
    now = timezone.now()
    if not claim(notification_id, now):
        return Outcome("")
    note = Notification.objects.select_related("seat", "game").get(pk=notification_id)
    if note.seat is not None and note.game is not None and note.seat.game_id == note.game_id:
        note.seat.game = note.game  # the seat's name is the game's to tell (no query)
    if earlier_unsent(note, now):
        _wait_for_earlier(note)
        # The earlier one may have gone through between the look and the wait, its
        # release finding this row still claimed: look once more, now that it waits.
        if looked_again or earlier_unsent(note, timezone.now()):
            return Outcome(Status.PENDING)
        return deliver(notification_id, looked_again=True)
    reason = skip_reason(note)
    if reason == FORGOTTEN:  # written before the address was forgotten: it goes too
        return _finish(note, Status.SKIPPED, last_error=reason, to_email="")
    if reason:
        return _finish(note, Status.SKIPPED, last_error=reason)
    if letter_parts.waits(note, now):
        # A part a feature above adds is not ready yet (the round's rating): back in
        # line, unsent; the game's later emails to the person wait behind it.
        _wait_for_earlier(note)
        return Outcome(Status.PENDING)
    waits = seen_turns.wait_when_sending(note, now)
    if waits is not None:  # the player looks at this turn on their page
        return _hold(note, waits)
    try:
        letter = letter_for(note)
        message = build(note, letter)
    except Skip as skip:
        return _finish(note, Status.SKIPPED, last_error=str(skip))
    except (OperationalError, InterfaceError):
        # The database went away while the letter read the game (PgBouncer restarting):
        # not the letter's fault. The row stays claimed; the sweep sends it once it is due.
        raise
    except Exception as error:  # a bug in rendering: retrying would fail the same way
        log.exception("notification %s could not be rendered", note.pk)
        _tell_moderators(note)
        return _finish(note, Status.FAILED, last_error=f"rendering failed: {error!r}"[:2000])
    try:
        message.send()
    except Exception as error:  # whatever the backend raises is the provider's answer
        return _failed_send(note, error, now)
    status = getattr(message, "anymail_status", None)
    provider_id = str(getattr(status, "message_id", "") or "") or message_id_for(note)
    log.info("notification %s (%s) sent", note.pk, note.kind)
    return _record_sent(note, sent_at=timezone.now(), subject=letter.subject[:300],
                        message_id=message_id_for(note), provider_id=provider_id[:200],
                        last_error="")


def _failed_send(note: Notification, error: Exception, now: datetime) -> Outcome:
    text = f"{type(error).__name__}: {error}"[:2000]
    if is_permanent(error) or note.attempts >= settings.EMAIL_MAX_ATTEMPTS:
        log.warning("notification %s failed for good: %s", note.pk, text)
        if refused_address(error) and note.seat_id is not None:
            Seat.objects.filter(pk=note.seat_id, email_problem_at=None).update(
                email_problem_at=now)
        elif not refused_address(error):
            _tell_moderators(note)
        return _finish(note, Status.FAILED, last_error=text)
    delay = backoff(note.attempts)
    log.info("notification %s: attempt %s failed, again in %ss: %s", note.pk, note.attempts,
             delay, text)
    _finish(note, Status.RETRYING, last_error=text, retry_at=now + timedelta(seconds=delay))
    return Outcome(Status.RETRYING, retry_in=delay)


def _tell_moderators(note: Notification) -> None:
    """An email that can never go out (it cannot be built or sent as it is): nobody would
    know, so the moderators are alerted (once per email)."""
    if note.kind == Notification.Kind.MODERATOR_ALERT:
        return
    send_after_commit(create(moderator_alert("broken_email", note.game, note.seat,
                                             f"n{note.pk}", notification=note.pk,
                                             kind=note.kind)))


def unsent(now: datetime, limit: int = 1000) -> list[int]:
    """Rows whose send task was lost: pending for a while (the broker was down when the
    change committed), stuck in `sending` (the worker died), or overdue for a retry.
    Stuck rows go back to `retrying` so they can be claimed again."""
    stuck = Notification.objects.filter(status=Status.SENDING,
                                        claimed_at__lte=now - stuck_after())
    stuck.update(status=Status.RETRYING)
    pending = Notification.objects.filter(
        Q(not_before__isnull=True) | Q(not_before__lte=now), status=Status.PENDING,
        created_at__lte=now - unsent_after())
    overdue = Notification.objects.filter(status=Status.RETRYING,
                                          retry_at__lte=now - unsent_after())
    stale_retry = Notification.objects.filter(status=Status.RETRYING, retry_at=None)
    ids = list(pending.values_list("pk", flat=True)[:limit])
    ids += list(overdue.values_list("pk", flat=True)[:limit])
    ids += list(stale_retry.values_list("pk", flat=True)[:limit])
    return ids


@shared_task(bind=True, name="games.tasks.send_notification", max_retries=None)
def send_notification(self: Task[Any, Any], notification_id: int) -> str:
    """Send one email; on a provider error, again after the backoff the row records."""
    outcome = deliver(notification_id)
    if outcome.retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status


def send_after_commit(ids: Iterable[int]) -> None:
    """Hand new rows to the send task once the transaction that wrote them commits (if
    the broker refuses, the beat's `requeue_unsent` sends them later)."""
    for notification_id in ids:
        queue_on_commit(send_notification, notification_id)
