"""Receipts from the service worker: `shown` when it showed the notification, `clicked`
when the person opened it (POST /push/receipt/<signed id>). The first of each counts;
either means the alert arrived, so the turn email it held for a push-only person is
skipped (games.mail.services.held_emails). The receipt rates per kind and browser
family are in /metrics and the admin (`rates`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import timezone

from games.mail.services.held_emails import skip_held
from games.push.core.alert_words import alert_of_receipt
from games.push.core.push_rows import PushAlert

EVENTS = ("shown", "clicked")
ARRIVED = "a push alert of it was shown"


@dataclass(frozen=True)
class Receipt:
    alert_id: int
    event: str
    first: bool  # the first receipt of this event for the alert


def record_receipt(signed: str, event: str) -> Receipt | None:
    """Record the receipt; None for a bad signature or an alert that is no more."""
    alert_id = alert_of_receipt(signed)
    if alert_id is None or event not in EVENTS:
        return None
    alert = PushAlert.objects.filter(pk=alert_id).first()
    if alert is None:
        return None
    now = timezone.now()
    field = f"{event}_at"
    first = PushAlert.objects.filter(pk=alert_id, **{f"{field}__isnull": True}).update(
        **{field: now}) == 1
    if event == "clicked":  # a click is also a showing (a worker killed before its receipt)
        PushAlert.objects.filter(pk=alert_id, shown_at__isnull=True).update(shown_at=now)
    if alert.holds_email and alert.notification_id is not None:
        skip_held(alert.notification_id, ARRIVED)
    return Receipt(alert_id=alert_id, event=event, first=first)


@dataclass(frozen=True)
class Rate:
    kind: str
    browser: str
    sent: int
    shown: int
    clicked: int


def rates() -> list[Rate]:
    """Per kind and browser family: alerts sent, and how many of them were shown, clicked."""
    rows = (PushAlert.objects.filter(status=PushAlert.Status.SENT)
            .values("kind", "browser")
            .annotate(sent=Count("id"), shown=Count("id", filter=Q(shown_at__isnull=False)),
                      clicked=Count("id", filter=Q(clicked_at__isnull=False)))
            .order_by("kind", "browser"))
    return [Rate(row["kind"], row["browser"], row["sent"], row["shown"], row["clicked"])
            for row in rows]
