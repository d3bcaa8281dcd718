"""The door of moves by email: a message is screened, stored and handed to a task.

    webhook   anymail's inbound signal (the web view `games.web.views.inbound_webhook`
              screened the request's bytes first, `games.inbound.screen`)
    accept    an Incoming for one of our live reply addresses -> an InboundMail row,
              processed by the task `process_inbound_mail` once the row is committed
    receive   accept and process at once (`manage.py inbound`, the outbox's reply box)

Turned away at the door (no row, no answer): mail for no live reply address ("unknown"),
auto-replies, bounces and list mail ("dropped": answering them could start a mail loop).
A message delivered twice (same Message-ID or provider event id) is stored once. The web
request only stores: the reading, the move and the answer happen in a worker, so a slow
message or a slow answer never holds a web worker.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from anymail.signals import AnymailInboundEvent, inbound
from django.db import IntegrityError, transaction
from django.dispatch import receiver

from games.inbound import answer, process
from games.inbound.incoming import Incoming, from_anymail, from_bytes, header_recipients
from games.inbound.parse import is_automatic
from games.inbound.screen import Screening, Verdict, screen
from games.mail.dispatch import enqueue
from games.mail.tracking import webhook_secured
from games.models import InboundMail, ReplyToken
from games.models.mailboxes import same_mailbox
from games.models.reply_tokens import find

log = logging.getLogger("games.inbound")
Outcome = InboundMail.Outcome


@dataclass(frozen=True)
class Accepted:
    outcome: str  # "received", "unknown" (no live reply address), "dropped" or "duplicate"
    detail: str = ""
    mail: InboundMail | None = None


def accept(incoming: Incoming, *, queue_task: bool = True) -> Accepted:
    """Store a parsed message for one of our live reply addresses; the task processes it
    after the commit (unless `queue_task` is False: the caller processes it itself)."""
    token = find(incoming.recipients)
    if token is None:
        return Accepted(Outcome.UNKNOWN_TOKEN, "no live reply address of ours")
    if is_automatic(incoming.headers, incoming.sender, incoming.subject):
        return Accepted("dropped", "an automatic message (auto-reply, bounce or list mail)")
    mail = _store(incoming, token)
    if mail is None:
        return Accepted("duplicate", "this message was handled before")
    if queue_task:
        mail_id = mail.pk
        transaction.on_commit(lambda: enqueue(process.process_inbound_mail, mail_id))
    return Accepted("received", "stored; a worker acts on it", mail)


def _store(incoming: Incoming, token: ReplyToken) -> InboundMail | None:
    seat = token.seat
    try:
        with transaction.atomic():
            return InboundMail.objects.create(
                message_id=incoming.message_id, event_id=incoming.event_id,
                sender=incoming.sender.strip()[:254], seat=seat,
                # Whose seat the reply address was (what makes it "received from" them).
                seat_key=seat.mailbox_key,
                game_id=token.game_id, token_hash=token.token_hash,
                subject=_one_line(incoming.subject), body_text=incoming.text,
                body_html=incoming.html if not incoming.text.strip() else "",
                from_mismatch=not same_mailbox(incoming.sender, seat.email))
    except IntegrityError:
        return None


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def receive(incoming: Incoming) -> process.Result:
    """Accept and process at once: `manage.py inbound` and the outbox's reply box show
    what happened (the answer email still goes through the outbox)."""
    accepted = accept(incoming, queue_task=False)
    if accepted.mail is None:
        return process.Result(accepted.outcome, accepted.detail)
    return process.process(accepted.mail.pk)


def receive_bytes(raw: bytes) -> process.Result:
    """One raw RFC 822 message, screened like the webhook's requests."""
    screening = screen(raw)
    if screening.verdict == Verdict.NO_ADDRESS:
        return process.Result(Outcome.UNKNOWN_TOKEN, "no live reply address of ours")
    if screening.verdict != Verdict.OK:
        return refuse_unread(screening, raw)
    return receive(from_bytes(raw))


def refuse_unread(screening: Screening, raw: bytes) -> process.Result:
    """A message to a live address that is not read: too large, or malformed. The seat is
    told (once per message), the message itself is never parsed."""
    token = screening.first
    assert token is not None
    outcome = (Outcome.TOO_LARGE if screening.verdict == Verdict.TOO_LARGE
               else Outcome.MALFORMED)
    subject = _subject_of(raw)
    digest = "sha256:" + hashlib.sha256(raw).hexdigest()
    try:
        with transaction.atomic():
            mail = InboundMail.objects.create(
                message_id=digest, seat=token.seat, game_id=token.game_id,
                token_hash=token.token_hash, subject=subject, outcome=outcome,
                detail=f"not read ({len(raw)} bytes)")
            answered = answer.plan_unread(mail, token.seat, outcome, len(raw))
            if answered:
                InboundMail.objects.filter(pk=mail.pk).update(answered=True)
    except IntegrityError:
        return process.Result("duplicate", "this message was handled before")
    return process.Result(outcome, mail.detail)


def _subject_of(raw: bytes) -> str:
    """The subject of a raw message, from its header block alone ("" for a provider's
    request, whose first bytes are not the message's headers)."""
    try:
        _recipients, subject = header_recipients(raw)
    except (ValueError, TypeError, LookupError):
        return ""
    return _one_line(subject)


@receiver(inbound, dispatch_uid="games.inbound.receive")
def handle_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    """anymail's inbound webhook, after `games.web.views.inbound_webhook` screened it."""
    if not webhook_secured():
        log.warning("ignored a %s inbound email: set ANYMAIL_WEBHOOK_SECRET", esp_name)
        return
    if event.message is None:
        return
    event_id = f"{esp_name.lower()}:{event.event_id}" if event.event_id else ""
    accepted = accept(from_anymail(event.message, event_id))
    log.info("%s inbound email: %s", esp_name, accepted.outcome)
