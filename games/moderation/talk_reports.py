"""Reporting a table-talk line (the seat page): it becomes a dispute for the moderators,
carrying the line and its context (the lines just before and after it, who wrote each and
when) as they were when reported, so the moderators see what was said even if it is
erased later. The moderators are emailed as for any dispute; the table is not told (a
report is between its filer and the moderators), and the line stays on the pages until a
moderator acts.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Dispute, Game, Message, Seat
from games.moderation import dispute_mail
from games.moderation.acts import ModerationError, locked_game
from games.play.text import is_clean_message

AROUND = 3  # lines kept before and after the reported one
MAX_REASON = 1000
MAX_OPEN_REPORTS = 5  # per seat, open at once


def _line(message: Message, reported: int) -> dict[str, Any]:
    return {"id": message.pk, "seat": message.seat.number, "name": message.seat.player_name,
            "at": message.created_at.isoformat(), "text": message.text,
            "reported": message.pk == reported}


def context_of(message: Message) -> list[dict[str, Any]]:
    """The line with AROUND lines before and after it, oldest first."""
    talk = Message.objects.filter(game_id=message.game_id).select_related("seat")
    before = list(talk.filter(created_at__lte=message.created_at).exclude(pk=message.pk)
                  .exclude(created_at=message.created_at, id__gt=message.pk)
                  .order_by("-created_at", "-id")[:AROUND])
    after = list(talk.filter(created_at__gte=message.created_at).exclude(pk=message.pk)
                 .exclude(created_at=message.created_at, id__lt=message.pk)
                 .order_by("created_at", "id")[:AROUND])
    return [_line(m, message.pk) for m in [*reversed(before), message, *after]]


def report_talk(seat_id: int, message_id: int, reason: str = "") -> Dispute:
    """`seat_id`'s player reports line `message_id` of their game. Raises
    ModerationError (no such line, one's own line, a bad reason, too many open)."""
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON or (reason and not is_clean_message(reason)):
        raise ModerationError("bad_reason", _("Say in at most %(max)s characters what is wrong "
                                              "with this line.") % {"max": MAX_REASON})
    seat = Seat.objects.get(pk=seat_id)
    message = (Message.objects.select_related("seat")
               .filter(pk=message_id, game_id=seat.game_id).first())
    if message is None:
        raise ModerationError("no_line", _("There is no such line in this game's talk."))
    if message.seat_id == seat.pk:
        raise ModerationError("own_line", _("This line is yours: there is nothing to report."))
    with locked_game(seat.game_id) as game:
        if game.status == Game.Status.CANCELLED:
            raise ModerationError("no_disputes", _("The game was cancelled."))
        if (seat.disputes.filter(status=Dispute.Status.OPEN, talk__isnull=False).count()
                >= MAX_OPEN_REPORTS):
            raise ModerationError("too_many_reports", _(
                "You have %(max)s reports waiting for a moderator in this game already.")
                % {"max": MAX_OPEN_REPORTS})
        text = reason or _("Reported table talk")
        dispute = Dispute.objects.create(
            game=game, seat=seat, text=_("Table talk reported: “%(line)s” (%(name)s). %(why)s")
            % {"line": message.text[:300], "name": message.seat.player_name, "why": text},
            talk=message, talk_context=context_of(message))
        dispute_mail.dispute_filed(dispute)
    return dispute
