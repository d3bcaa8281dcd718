"""The worker's part of a move by email: read a stored message, act on it, plan the answer.

    process(mail_id) -> Result

Parse -> resolve -> submit -> render: the stored message is read with its reply
address's door in one statement (`games.seats.core.reply_tokens.ReplyDoor`: the address is
checked again, as a new link, a new player or a bot may have taken the seat since the
webhook stored the message: then nothing is done and nothing is answered); its lines
are acted on through the same services as the page and the API
(`games.inbound.services.apply`), and the move's report says what happened.

Exactly once: the message is read (here and never in the web request: parsed under
`games.inbound.core.screen`'s limits, past them the seat is told "we could not read your
email", within the task's time limits), then the row is claimed by the conditional
UPDATE that records what was read (received -> processing, with its sender, subject and
Message-ID), so a task delivered twice does nothing the second time, nor does the same
message delivered by another route (the same Message-ID). An auto-reply, a bounce or list
mail gets no answer (`games.inbound.core.parse.is_automatic`, also an out-of-office text
with no command in it), nor does a message with no words of its own above the quoted
text. Everything else is answered by email (`games.inbound.services.answer`: a
Notification like every other email), at most INBOUND_ANSWERS_PER_HOUR answers per seat
and hour. The stored message is emptied once it has been acted on.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.utils import timezone, translation

from games.inbound.core.auto_replies import sounds_automatic
from games.inbound.core.commands import command_lines
from games.inbound.core.inbound_mail import InboundMail
from games.inbound.core.incoming import Incoming, from_bytes, from_fields, from_head
from games.inbound.core.parse import body_text, is_automatic, reply_lines
from games.inbound.core.providers import HEAD_BYTES, Format
from games.inbound.core.screen import Unreadable
from games.inbound.services import answer
from games.inbound.services.apply import Result, act
from games.kit.unique_writes import unless_taken
from games.people.core.mailboxes import same_mailbox
from games.seats.core.reply_tokens import ReplyDoor, door_of, token_columns
from games.seats.core.seat import Seat

log = logging.getLogger("games.inbound")
Outcome = InboundMail.Outcome
# A stored message whose task was lost (broker down) is processed by the beat after this.
STALE_AFTER = timedelta(minutes=2)
# The task's time limits: the soft one ends it with "we could not read your email", the
# hard one kills the worker process (the parser's own limits come far earlier).
SOFT_TIME_LIMIT = 20
TIME_LIMIT = 30

__all__ = ["Result", "process", "process_inbound_mail", "unprocessed"]


def _claim(mail_id: int) -> bool:
    return InboundMail.objects.filter(pk=mail_id, outcome=Outcome.RECEIVED).update(
        outcome=Outcome.PROCESSING) == 1


def _finish(mail: InboundMail, result: Result, *, answered: bool,
            claiming: bool = False) -> bool:
    """The outcome recorded and the message emptied; `claiming`: only if no task claimed
    the row yet (False when one did)."""
    rows = InboundMail.objects.filter(pk=mail.pk)
    if claiming:
        rows = rows.filter(outcome=Outcome.RECEIVED)
    return rows.update(outcome=result.outcome, detail=result.detail[:2000],
                       answered=answered, payload=b"") == 1


def _stored(mail_id: int) -> tuple[InboundMail, ReplyDoor | None] | None:
    """The stored message if no task claimed it yet, and the door its reply address
    still opens (None: gone or dead), in one read."""
    mail = (InboundMail.objects.filter(pk=mail_id, outcome=Outcome.RECEIVED)
            .select_related("seat__game").annotate(**token_columns()).first())
    if mail is None:
        return None
    return mail, door_of(mail.token_hash, mail.seat, getattr(mail, "reply_version", None),
                         getattr(mail, "reply_link", None))


def too_large(mail: InboundMail) -> bool:
    return mail.payload_format == Format.MIME and mail.size > settings.INBOUND_MAX_BYTES


def _read(mail: InboundMail) -> Incoming:
    """The stored message as plain data (Unreadable past the parser's limits)."""
    payload = bytes(mail.payload)
    if mail.payload_format == Format.FIELDS:
        return from_fields(payload)
    if mail.payload_format == Format.S3:
        payload = _fetched(mail, payload)
    return from_head(payload) if too_large(mail) else from_bytes(payload)


def _fetched(mail: InboundMail, location: bytes) -> bytes:
    """An Amazon SES message kept in S3 (the S3 receipt action), fetched by anymail's
    client, at most INBOUND_MAX_BYTES of it (a larger one keeps its head and its size)."""
    from anymail.webhooks.amazon_ses import AmazonSESInboundWebhookView

    try:
        where = json.loads(location)
        chunks = AmazonSESInboundWebhookView().fetch_s3_chunks(where["bucket"], where["key"])
        raw = b""
        for chunk in chunks:
            raw += chunk
            if len(raw) > settings.INBOUND_MAX_BYTES:
                break
    except Exception as error:  # S3 or its credentials: logged, the seat told
        log.error("inbound email %s: its message could not be fetched from S3", mail.pk,
                  exc_info=True)
        raise Unreadable("could not be fetched from S3") from error
    mail.size = len(raw)
    mail.payload_format = Format.MIME
    return raw if not too_large(mail) else raw[:HEAD_BYTES]


def _claim_reading(mail: InboundMail, incoming: Incoming, seat: Seat) -> bool | None:
    """Claim the row with what was read: who sent it, its subject (the answer's "Re:")
    and its Message-ID. None when another task claimed it first, False when that
    Message-ID was handled before (a message delivered twice, by two routes)."""
    sender = incoming.sender.strip()[:254]
    mail.subject = " ".join(incoming.subject.split())[:300]
    message_id = incoming.message_id[:250]
    claimed = unless_taken(lambda: InboundMail.objects.filter(
        pk=mail.pk, outcome=Outcome.RECEIVED).update(
        outcome=Outcome.PROCESSING, sender=sender, subject=mail.subject,
        message_id=message_id, size=mail.size,
        from_mismatch=not same_mailbox(sender, seat.email)))
    if claimed is None:
        return False
    if not claimed:
        return None
    mail.message_id = message_id
    return True


def process(mail_id: int) -> Result:
    stored = _stored(mail_id)
    if stored is None:
        return _handled_before()
    mail, door = stored
    if door is None:
        result = Result(Outcome.UNKNOWN_TOKEN, "the reply address no longer works")
        return result if _finish(mail, result, answered=False, claiming=True) \
            else _handled_before()
    seat = door.seat
    try:
        incoming = _read(mail)
    except Unreadable as why:
        if not _claim(mail.pk):
            return _handled_before()
        return _unread(mail, seat, Outcome.MALFORMED, f"not read: {why}")
    claimed = _claim_reading(mail, incoming, seat)
    if claimed is None:
        return _handled_before()
    if not claimed:
        return _dropped(mail, Result(Outcome.DUPLICATE, "this message was handled before"),
                        claiming=True)
    with translation.override(seat.language):
        title = door.game.title  # as the subject of the seat's emails names it
    if is_automatic(incoming.headers, incoming.sender, incoming.subject, title):
        return _dropped(mail, Result(Outcome.AUTOMATIC, "an automatic message (auto-reply, "
                                                        "bounce or list mail)"))
    if too_large(mail):
        return _unread(mail, seat, Outcome.TOO_LARGE, f"not read ({mail.size} bytes)")
    lines = reply_lines(body_text(incoming.text, incoming.html))
    if not lines:
        return _dropped(mail, Result(Outcome.EMPTY, "no words above the quoted text"))
    if _out_of_office(lines, seat):
        return _dropped(mail, Result(Outcome.AUTOMATIC, "an out-of-office text"))
    with translation.override(seat.language):
        result = act(door, lines)
    answered = bool(result.answer) and answer.plan_answer(mail, seat, result)
    if result.answer and not answered:
        result = Result(result.outcome, result.detail + " (answer limit reached)", [],
                        result.move)
    _finish(mail, result, answered=answered)
    log.info("inbound email %s: %s", mail.pk, result.outcome)
    return result


def _handled_before() -> Result:
    """Another task claimed the message (a task delivered twice): nothing is done."""
    return Result("duplicate", "this message was handled before")


def _out_of_office(lines: list[str], seat: Seat) -> bool:
    """A text that says its writer is away and holds no command: a machine's answer (a
    command, however wrong, is a person's)."""
    return sounds_automatic(lines) and not command_lines(lines, seat.language)


def _dropped(mail: InboundMail, result: Result, *, claiming: bool = False) -> Result:
    if not _finish(mail, result, answered=False, claiming=claiming):
        return _handled_before()
    log.info("inbound email %s: %s", mail.pk, result.outcome)
    return result


def _unread(mail: InboundMail, seat: Seat, outcome: str, detail: str) -> Result:
    """Tell the seat that its email was not read (too large, or past the parser's limits)."""
    answered = answer.plan_unread(mail, seat, outcome, mail.size)
    result = Result(outcome, detail)
    _finish(mail, result, answered=answered)
    log.info("inbound email %s: %s", mail.pk, outcome)
    return result


def past_time_limit(mail_id: int) -> Result:
    """The task ran out of time: the message is not read, and its seat is told so (the
    row claimed first if reading it took the time)."""
    _claim(mail_id)
    mail = InboundMail.objects.filter(pk=mail_id, outcome=Outcome.PROCESSING) \
        .select_related("seat").first()
    if mail is None or mail.seat is None:
        return Result(Outcome.MALFORMED, "past the time limit")
    return _unread(mail, mail.seat, Outcome.MALFORMED, "not read: past the time limit")


@shared_task(name="games.tasks.process_inbound_mail", soft_time_limit=SOFT_TIME_LIMIT,
             time_limit=TIME_LIMIT)
def process_inbound_mail(mail_id: int) -> str:
    """Read, and act on, a reply to a turn email that the webhook stored; plan its answer."""
    try:
        return process(mail_id).outcome
    except SoftTimeLimitExceeded:
        log.warning("inbound email %s: past the task's time limit", mail_id)
        return past_time_limit(mail_id).outcome


def unprocessed(now: datetime | None = None) -> list[int]:
    """Stored messages whose task never ran (the beat hands them to tasks again)."""
    before = (now or timezone.now()) - STALE_AFTER
    return list(InboundMail.objects.filter(outcome=Outcome.RECEIVED, received_at__lt=before)
                .order_by("received_at").values_list("pk", flat=True)[:200])
