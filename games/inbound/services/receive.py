"""The door of moves by email: a delivery is stored, unread, and handed to a task.

    webhook   `games.inbound.doors.webhook`: a provider's post, authenticated, read
              into deliveries (`games.inbound.core.providers`: the envelope and the message as
              posted), each accepted here
    accept    a delivery for one of our live reply addresses (found in its envelope) ->
              an InboundMail row holding the message as posted; the task
              `process_inbound_mail` reads and acts on it once the row is committed
    receive   accept and process at once (`manage.py inbound`, the outbox's reply box,
              the tests)

Turned away at the door (no row, no answer): mail for no live reply address ("unknown").
A message delivered twice (the provider's id of it, else the same bytes) is stored once.
The web request never parses the message: whether it is an auto-reply, what it says, how
its MIME parts nest is read by the worker (`games.inbound.services.process`), so a crafted message
can never hold a web worker.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

from games.inbound.core import providers
from games.inbound.core.inbound_mail import InboundMail
from games.inbound.core.incoming import Incoming, header_recipients
from games.inbound.core.providers import Delivery
from games.inbound.core.screen import Unreadable
from games.inbound.services import process
from games.kit.after_commit import queue_on_commit
from games.seats.core.reply_tokens import ReplyDoor, find

log = logging.getLogger("games.inbound")
Outcome = InboundMail.Outcome


@dataclass(frozen=True)
class Accepted:
    outcome: str  # "received", "unknown" (no live reply address) or "duplicate"
    detail: str = ""
    mail: InboundMail | None = None


def accept(delivery: Delivery, *, queue_task: bool = True) -> Accepted:
    """Store a delivery for one of our live reply addresses; the task processes it after
    the commit (unless `queue_task` is False: the caller processes it itself). A
    database error propagates: the provider must hear that it was not stored."""
    door = find(delivery.recipients)
    if door is None:
        return Accepted(Outcome.UNKNOWN_TOKEN, "no live reply address of ours")
    mail = _store(delivery, door)
    if mail is None:
        return Accepted("duplicate", "this message was handled before")
    if queue_task:
        queue_on_commit(process.process_inbound_mail, mail.pk)
    return Accepted(Outcome.RECEIVED, "stored; a worker reads it", mail)


def delivery_key(delivery: Delivery) -> str:
    """What makes a delivery unique: the provider's id of the message, else its bytes."""
    if delivery.event_id:
        return delivery.event_id[:250]
    digest = hashlib.sha256(delivery.payload)
    digest.update(f":{delivery.size}".encode())
    return "sha256:" + digest.hexdigest()


def _store(delivery: Delivery, door: ReplyDoor) -> InboundMail | None:
    try:
        with transaction.atomic():
            return InboundMail.objects.create(
                event_id=delivery_key(delivery), seat=door.seat, game_id=door.seat.game_id,
                # Whose seat the reply address was (what makes it "received from" them).
                seat_key=door.seat.mailbox_key,
                token_hash=door.token_hash, payload=delivery.payload,
                payload_format=delivery.payload_format, size=delivery.size)
    except IntegrityError:
        return None


def receive(incoming: Incoming) -> process.Result:
    """Accept and process a message given as plain data at once (the tests' replies)."""
    payload = providers.parsed_fields(
        sender=incoming.sender, subject=incoming.subject, text=incoming.text,
        html=incoming.html, message_id=incoming.message_id, headers=incoming.headers)
    delivery = Delivery(incoming.recipients, incoming.event_id, providers.Format.FIELDS,
                        payload, len(payload))
    return _accept_and_process(delivery)


def receive_bytes(raw: bytes, envelope: Iterable[str] = ()) -> process.Result:
    """One raw RFC 822 message, accepted and processed at once. `envelope`: whom it was
    delivered to (the outbox's reply box knows); a file has none, so then the recipients
    its header block names count (`manage.py inbound`)."""
    recipients = tuple(envelope)
    if not recipients:
        try:
            recipients = header_recipients(raw)
        except Unreadable:
            recipients = ()
    delivery = providers.mime_delivery(recipients, "", raw, int(settings.INBOUND_MAX_BYTES))
    return _accept_and_process(delivery)


def _accept_and_process(delivery: Delivery) -> process.Result:
    accepted = accept(delivery, queue_task=False)
    if accepted.mail is None:
        return process.Result(accepted.outcome, accepted.detail)
    return process.process(accepted.mail.pk)
