"""Delivery reports from the email provider (anymail's tracking webhook).

The provider calls /anymail/<provider>/tracking/ (HTTP basic auth with
ANYMAIL_WEBHOOK_SECRET; without a secret, reports are ignored); anymail turns its
payload into a normalised event and sends the `tracking` signal, which lands here.
The event is matched to its Notification by the provider's message id (saved when
the message was sent), else by the `notification` metadata we attach. A bounce,
complaint or rejection marks the seat (`email_problem_at`), which the moderators see
in the admin and which stops further emails to it until the player saves their email
settings again; a complaint also switches the seat to "links only" (the player said
they do not want this mail).
"""

from __future__ import annotations

import logging
from typing import Any

from anymail.signals import AnymailTrackingEvent, tracking
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games.game.core.game import EmailMode
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.seats.core.seat import Seat

log = logging.getLogger("games.notifications")
Delivery = Notification.Delivery

RECORDED = {
    "delivered": Delivery.DELIVERED,
    "bounced": Delivery.BOUNCED,
    "complained": Delivery.COMPLAINED,
    "rejected": Delivery.REJECTED,
}
PROBLEMS = {Delivery.BOUNCED, Delivery.COMPLAINED, Delivery.REJECTED}


def find_notification(event: AnymailTrackingEvent) -> Notification | None:
    if event.message_id:
        found = (Notification.objects.filter(provider_id=str(event.message_id))
                 .select_related("seat", "game").first())
        if found is not None:
            return found
    ident = (event.metadata or {}).get("notification")
    if ident and str(ident).isdigit():
        return Notification.objects.filter(pk=int(ident)).select_related("seat", "game").first()
    return None


def webhook_secured() -> bool:
    """anymail accepts unauthenticated webhook calls (with a warning) when no secret is
    set; a forged complaint could then switch players' emails off, so we ignore them."""
    return bool((getattr(settings, "ANYMAIL", None) or {}).get("WEBHOOK_SECRET"))


@receiver(tracking, dispatch_uid="games.mail.services.tracking")
def record_delivery(sender: Any, event: AnymailTrackingEvent, esp_name: str,
                    **kwargs: Any) -> None:
    if not webhook_secured():
        log.warning("ignored a %s delivery report: set ANYMAIL_WEBHOOK_SECRET", esp_name)
        return
    delivery = RECORDED.get(str(event.event_type))
    if delivery is None:
        return  # queued, opened, clicked ...: not tracked (we ask providers not to)
    note = find_notification(event)
    if note is None:
        log.info("%s %s event for an unknown message", esp_name, event.event_type)
        return
    when = event.timestamp or timezone.now()
    with transaction.atomic():
        # A late "delivered" must not hide an earlier bounce of the same message.
        if not (delivery == Delivery.DELIVERED and note.delivery in PROBLEMS):
            Notification.objects.filter(pk=note.pk).update(delivery=delivery, delivery_at=when)
        if delivery in PROBLEMS and note.seat is not None:
            flag_seat(note.seat, delivery, when)


def flag_seat(seat: Seat, delivery: str, when: Any) -> None:
    changes: dict[str, Any] = {}
    if seat.email_problem_at is None:
        changes["email_problem_at"] = when
    if delivery == Delivery.COMPLAINED:
        changes["email_mode"] = EmailMode.LINKS_ONLY
    if changes:
        Seat.objects.filter(pk=seat.pk).update(**changes)
    plan.queue(plan.email_problem(seat, str(delivery), timezone.now()))
