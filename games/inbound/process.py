"""The worker's part of a move by email: read a stored message, act on it, plan the answer.

    process(mail_id) -> Result

Exactly once: the row is claimed with a conditional UPDATE (received -> processing), so
a task delivered twice does nothing the second time. The reply address is checked again
(a new link, a new player or a bot may have taken the seat since the webhook stored the
message: then nothing is done and nothing is answered). A message with no words of its
own above the quoted text gets no answer either. Everything else is answered by email
(`games.inbound.answer`: a Notification like every other email), at most
INBOUND_ANSWERS_PER_HOUR answers per seat and hour. The stored text is emptied once the
message has been acted on.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.utils import timezone, translation

from games.inbound import answer
from games.inbound.apply import Result, act
from games.inbound.parse import body_text, reply_lines
from games.models import InboundMail
from games.models.reply_tokens import ReplyToken

log = logging.getLogger("games.inbound")
Outcome = InboundMail.Outcome
# A stored message whose task was lost (broker down) is processed by the beat after this.
STALE_AFTER = timedelta(minutes=2)

__all__ = ["Result", "process", "process_inbound_mail", "unprocessed"]


def _claim(mail_id: int) -> bool:
    return InboundMail.objects.filter(pk=mail_id, outcome=Outcome.RECEIVED).update(
        outcome=Outcome.PROCESSING) == 1


def _finish(mail: InboundMail, result: Result, answered: bool) -> None:
    InboundMail.objects.filter(pk=mail.pk).update(
        outcome=result.outcome, detail=result.detail[:2000], answered=answered,
        body_text="", body_html="")


def _live_token(mail: InboundMail) -> ReplyToken | None:
    token = (ReplyToken.objects.filter(token_hash=mail.token_hash)
             .select_related("seat", "game").first()) if mail.token_hash else None
    return token if token is not None and token.is_live else None


def process(mail_id: int) -> Result:
    if not _claim(mail_id):
        return Result("duplicate", "this message was handled before")
    mail = InboundMail.objects.get(pk=mail_id)
    token = _live_token(mail)
    if token is None:
        result = Result(Outcome.UNKNOWN_TOKEN, "the reply address no longer works")
        _finish(mail, result, answered=False)
        return result
    lines = reply_lines(body_text(mail.body_text, mail.body_html))
    if not lines:
        result = Result(Outcome.EMPTY, "no words above the quoted text")
        _finish(mail, result, answered=False)
        return result
    seat = token.seat
    with translation.override(seat.language):
        result = act(token, seat, lines)
    answered = bool(result.answer) and answer.plan_answer(mail, seat, result)
    if result.answer and not answered:
        result = Result(result.outcome, result.detail + " (answer limit reached)", [],
                        result.move)
    _finish(mail, result, answered)
    log.info("inbound email %s: %s", mail.pk, result.outcome)
    return result


@shared_task(name="games.tasks.process_inbound_mail")
def process_inbound_mail(mail_id: int) -> str:
    """Act on a reply to a turn email that the webhook stored, and plan its answer."""
    return process(mail_id).outcome


def unprocessed(now: datetime | None = None) -> list[int]:
    """Stored messages whose task never ran (the beat hands them to tasks again)."""
    before = (now or timezone.now()) - STALE_AFTER
    return list(InboundMail.objects.filter(outcome=Outcome.RECEIVED, received_at__lt=before)
                .order_by("received_at").values_list("pk", flat=True)[:200])
