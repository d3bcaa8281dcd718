"""Sending one push: claim it, build its words, encrypt and post them, record what the
push service said.

Exactly once, as emails (games.mail.services.send): a conditional UPDATE claims the row
(pending or retrying -> sending), so a task run twice sends nothing more.

The request (RFC 8030, through pywebpush): the payload encrypted for the device alone
(aes128gcm, RFC 8291), signed with the server's VAPID key (RFC 8292, VAPID_SUBJECT);
`TTL` the seconds left until the turn's deadline (never 0: a push with TTL 0 is dropped
by a device asleep; a game without a deadline keeps it four weeks, the push services'
longest); `Urgency: high` for a turn or a deadline within 24 hours (Android's Doze holds a
normal one for minutes), else normal; `Topic` the game, so the push service keeps only the
newest alert of a game for a device offline. Every push shows a notification (the
service worker never receives one silently: iOS revokes a subscription after those).

What the push service answers: 201 sent; 404 or 410 the subscription is dead: the
device is removed; 429 or 5xx (or no answer) again later with backoff (doubling from
PUSH_RETRY_SECONDS, at most an hour; a longer Retry-After wins), until
PUSH_MAX_ATTEMPTS; any other answer fails the alert. An alert that can no longer arrive
sends the email it held at once.

The same rules as the turn email before it goes: nothing for a person forgotten or a
seat that changed hands, nothing for a turn that is over, and a turn the open page
showed waits like its email (games.mail.core.seen_turns).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

import requests
from celery import Task, shared_task
from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from games.kit.after_commit import queue_on_commit
from games.mail.core import seen_turns
from games.mail.services.held_emails import send_now
from games.people.core.home_links import home_token
from games.people.core.mailboxes import as_delivered
from games.people.core.player_data import is_forgotten
from games.push.core.alert_words import payload, topic
from games.push.core.endpoints import BadEndpoint, check_endpoint
from games.push.core.push_rows import AlertKind, PushAlert, PushDevice

log = logging.getLogger("games.push")
Status = PushAlert.Status
MAX_RETRY_SECONDS = 3600
LONGEST_TTL = 28 * 24 * 3600  # without a deadline: four weeks
HIGH_WITHIN = timedelta(hours=24)
GONE = (404, 410)


@dataclass(frozen=True)
class Outcome:
    status: str  # a PushAlert status, or "" when there was nothing to claim
    retry_in: int | None = None


@dataclass(frozen=True)
class Headers:
    ttl: int
    urgency: str
    topic: str


def headers_for(kind: str, deadline: datetime | None, game_public_id: str,
                now: datetime) -> Headers:
    """TTL, Urgency and Topic (see the module)."""
    if deadline is None:
        ttl = LONGEST_TTL
    else:
        ttl = max(1, min(int((deadline - now).total_seconds()), LONGEST_TTL))
    soon = deadline is not None and deadline - now < HIGH_WITHIN
    urgency = "high" if kind == AlertKind.TURN or soon else "normal"
    return Headers(ttl=ttl, urgency=urgency, topic=topic(game_public_id))


def backoff(attempt: int, retry_after: int | None = None) -> int:
    delay = min(settings.PUSH_RETRY_SECONDS * 2 ** max(attempt - 1, 0), MAX_RETRY_SECONDS)
    return int(max(delay, retry_after or 0))


@cache
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key)


class NoRedirects(requests.Session):
    """The push service's answer is final: a redirect is never followed (it could lead
    into the server's own network past the endpoint's check)."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def claim(alert_id: int, now: datetime) -> bool:
    return PushAlert.objects.filter(
        Q(not_before__isnull=True) | Q(not_before__lte=now), pk=alert_id,
        status__in=[Status.PENDING, Status.RETRYING],
    ).update(status=Status.SENDING, attempts=F("attempts") + 1, claimed_at=now,
             retry_at=None) == 1


def _finish(alert: PushAlert, status: str, **fields: object) -> Outcome:
    PushAlert.objects.filter(pk=alert.pk, status=Status.SENDING).update(status=status,
                                                                       **fields)
    if status in (Status.FAILED, Status.GONE, Status.SKIPPED) and alert.holds_email:
        _release_email(alert)
    return Outcome(status)


def _release_email(alert: PushAlert) -> None:
    """The alert will never arrive: the email it held goes now, unless another device's
    alert of it is still on its way or arrived."""
    held = alert.notification_id
    if held is None:
        return
    alive = PushAlert.objects.filter(
        notification_id=held,
        status__in=[Status.PENDING, Status.SENDING, Status.RETRYING, Status.SENT],
    ).exclude(pk=alert.pk).exists()
    if not alive:
        send_now(held)


def _hold(alert: PushAlert, until: datetime) -> Outcome:
    PushAlert.objects.filter(pk=alert.pk, status=Status.SENDING).update(
        status=Status.PENDING, not_before=until, attempts=F("attempts") - 1)
    return Outcome(Status.PENDING)


def skip_reason(alert: PushAlert, device: PushDevice | None) -> str:
    """Why this push should not go now, or ''."""
    if device is None:
        return "the device was removed"
    if is_forgotten(alert.to_email):
        return "the address asked to be forgotten"
    seat, game = alert.seat, alert.game
    if as_delivered(seat.email) != as_delivered(alert.to_email):
        return "the seat changed hands"
    if alert.kind == AlertKind.TURN or alert.kind == AlertKind.DEADLINE:
        version = alert.notification.params.get("version") if alert.notification else None
        if game.status != game.Status.ACTIVE or game.actor != seat.number or (
                version is not None and game.version != version):
            return "the turn is over"
    return ""


def deliver(alert_id: int) -> Outcome:
    """Claim, build and post one push. Safe to call any number of times."""
    now = timezone.now()
    if not claim(alert_id, now):
        return Outcome("")
    alert = PushAlert.objects.select_related("device", "notification__seat", "seat",
                                             "game").get(pk=alert_id)
    note, device = alert.notification, alert.device
    reason = skip_reason(alert, device)
    if reason:
        return _finish(alert, Status.SKIPPED, last_error=reason)
    assert device is not None
    waits = (seen_turns.wait_when_sending(note, now)
             if alert.kind == AlertKind.TURN and note is not None else None)
    if waits is not None:  # the player looks at this turn on their page
        return _hold(alert, waits)
    try:
        check_endpoint(device.endpoint)  # again: its name may point elsewhere now
    except BadEndpoint as refused:
        return _finish(alert, Status.FAILED, last_error=str(refused)[:200])
    game, seat = alert.game, alert.seat
    deadline = game.deadline_at
    local = deadline.astimezone(seat.zone) if deadline is not None else None
    data = payload(alert, home_token(alert.to_email), seat.language, local)
    headers = headers_for(alert.kind, deadline, game.public_id, now)
    return _post(alert, device, data, headers, now)


def _post(alert: PushAlert, device: PushDevice, data: dict[str, Any], headers: Headers,
          now: datetime) -> Outcome:
    try:
        webpush({"endpoint": device.endpoint,
                 "keys": {"p256dh": device.p256dh, "auth": device.auth}},
                data=json.dumps(data, ensure_ascii=False),
                vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                content_encoding="aes128gcm", ttl=headers.ttl, timeout=settings.PUSH_TIMEOUT,
                headers={"Urgency": headers.urgency, "Topic": headers.topic},
                requests_session=NoRedirects())
    except WebPushException as error:
        answer = error.response
        code = answer.status_code if answer is not None else None
        return _refused(alert, device, code, _retry_after(answer), now)
    except (requests.RequestException, OSError) as error:
        return _refused(alert, device, None, None, now, detail=type(error).__name__)
    PushDevice.objects.filter(pk=device.pk).update(last_ok_at=now)
    log.info("push alert %s (%s) sent to device %s", alert.pk, alert.kind, device.pk)
    return _finish(alert, Status.SENT, sent_at=timezone.now(), last_error="")


def _retry_after(answer: requests.Response | None) -> int | None:
    if answer is None:
        return None
    try:
        return max(0, int(answer.headers.get("Retry-After", "")))
    except ValueError:
        return None


def _refused(alert: PushAlert, device: PushDevice, code: int | None,
             retry_after: int | None, now: datetime, detail: str = "") -> Outcome:
    said = f"HTTP {code}" if code is not None else f"no answer ({detail})"
    if code in GONE:
        log.info("push alert %s: device %s is gone (%s): removed", alert.pk, device.pk, said)
        outcome = _finish(alert, Status.GONE, last_error=said)
        device.delete()
        return outcome
    temporary = code is None or code == 429 or code >= 500
    if not temporary or alert.attempts >= settings.PUSH_MAX_ATTEMPTS:
        log.warning("push alert %s to device %s failed for good: %s", alert.pk, device.pk,
                    said)
        return _finish(alert, Status.FAILED, last_error=said)
    delay = backoff(alert.attempts, retry_after)
    log.info("push alert %s: attempt %s failed (%s), again in %ss", alert.pk, alert.attempts,
             said, delay)
    _finish(alert, Status.RETRYING, last_error=said, retry_at=now + timedelta(seconds=delay))
    return Outcome(Status.RETRYING, retry_in=delay)


def due(now: datetime, limit: int = 1000) -> list[int]:
    """Alerts to hand to the worker again: held ones now due, retries due, and claims a
    dead worker left behind (back to retrying)."""
    stale = now - timedelta(seconds=settings.PUSH_TIMEOUT + 60)
    PushAlert.objects.filter(status=Status.SENDING, claimed_at__lte=stale).update(
        status=Status.RETRYING, retry_at=now)
    ready = (Q(status=Status.PENDING) & (Q(not_before__isnull=True) | Q(not_before__lte=now))
             & Q(created_at__lte=now - timedelta(seconds=30))) | Q(
        status=Status.RETRYING, retry_at__lte=now)
    return list(PushAlert.objects.filter(ready).order_by("pk")
                .values_list("pk", flat=True)[:limit])


@shared_task(bind=True, name="games.tasks.send_push", max_retries=None)
def send_push(self: Task[Any, Any], alert_id: int) -> str:
    """Post one push; on a busy push service, again after the backoff the row records."""
    outcome = deliver(alert_id)
    if outcome.retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status


def send_after_commit(alert_ids: list[int]) -> None:
    for alert_id in alert_ids:
        queue_on_commit(send_push, alert_id)
