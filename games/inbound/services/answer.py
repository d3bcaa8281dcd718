"""The answer to a move by email: a Notification like every other email (planned here,
written by `games.mail.doors.answer_letter`, sent by the send task with retries, recorded).

It goes to the seat's own address (it may show the hand; the From is not trusted), in
the thread of the player's reply (`In-Reply-To`/`References` its Message-ID). At most
INBOUND_ANSWERS_PER_HOUR answers go to one seat per hour, whoever sends the replies: a
mail loop or a flood of replies cannot make the server write more.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.inbound.core.inbound_mail import InboundMail
from games.inbound.services.apply import Result
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.seats.core.seat import Seat

Kind = Notification.Kind


def _within_limit(seat: Seat) -> bool:
    since = timezone.now() - timedelta(hours=1)
    sent = Notification.objects.filter(kind=Kind.ANSWER, seat=seat,
                                       created_at__gte=since).count()
    return sent < settings.INBOUND_ANSWERS_PER_HOUR


def _queue(mail: InboundMail, seat: Seat, **params: object) -> bool:
    if not seat.email or not _within_limit(seat):
        return False
    subject = mail.subject if mail.subject.lower().startswith("re:") else \
        f"Re: {mail.subject}".strip() if mail.subject else ""
    real_id = mail.message_id  # "" for a message that was not read
    ids = plan.queue([plan.Spec(
        key=f"answer:inbound={mail.pk}", kind=Kind.ANSWER, to_email=seat.email,
        game_id=seat.game_id, seat_id=seat.pk,
        params={"subject": subject[:250], "in_reply_to": real_id, **params})])
    return bool(ids)


def plan_answer(mail: InboundMail, seat: Seat, result: Result) -> bool:
    """Plan the answer to a processed reply; False when the seat's limit is reached."""
    return _queue(mail, seat, lines=result.answer,
                  moved=result.outcome == InboundMail.Outcome.MOVED)


def plan_unread(mail: InboundMail, seat: Seat, outcome: str, size: int) -> bool:
    """Tell the seat that its email was not read (too large, or past the parser's limits:
    `games.inbound.core.screen`)."""
    with translation.override(seat.language):
        line = _unread_line(outcome, size)
    return _queue(mail, seat, lines=[line], moved=False, unread=True)


def _unread_line(outcome: str, size: int) -> str:
    if outcome == InboundMail.Outcome.TOO_LARGE:
        limit = settings.INBOUND_MAX_BYTES // 1024
        return _("Your email was not read: at %(size)s KB it is larger than the %(limit)s KB "
                 "we accept. Reply again without attachments or pictures.") % {
            "size": size // 1024, "limit": limit}
    return _("We could not read your email: it has more parts, or parts nested more "
             "deeply, than we can read. Reply again as plain text, without forwarded emails "
             "or attachments.")
