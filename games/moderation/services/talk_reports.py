"""Reporting a table-talk line (the seat page): the reports of one line are one dispute for
the moderators, carrying the line and its context (the lines just before and after it,
each with its seat and when) as they were when first reported, so the moderators see what
was said even if it is erased later. Neither the context nor the dispute's text keeps a
writer's name: the pages and emails name whoever held the seat when each line was
written (games.moderation.services.reported_talk), which no takeover or "forget me" since can make
untrue. A later report of the line adds its seat to that dispute (a TalkReport row
each); a seat that reported the line already changes nothing. The moderators hear of a
game's reports at most once an hour (games.moderation.services.dispute_mail: the first at once,
the next ones in a digest); the table is not told (a report is between its filer and the
moderators), and the line stays on the pages until a moderator acts.

    report_talk(seat_id, message_id, reason) -> Reported
    reporters(dispute) -> [Reporter]   who reported it, named as the seat's holder then
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from django.utils import timezone
from django.utils.translation import gettext as _

from games.game.core.game import Game
from games.game.core.talk_and_notices import Message
from games.kit.text import is_clean_message
from games.moderation.core.moderation_rows import Dispute, TalkReport
from games.moderation.services import dispute_mail
from games.moderation.services.acts import ModerationError, locked_game
from games.seats.core.seat import Seat
from games.seatview.services.holders import holder_then, seat_changes

AROUND = 3  # lines kept before and after the reported one
MAX_REASON = 1000
MAX_OPEN_REPORTS = 5  # per seat, disputes it filed about talk waiting for a moderator


@dataclass(frozen=True)
class Reported:
    """What a report did: a new dispute ("filed"), one more reporter on the line's open
    dispute ("joined"), or nothing, the seat having reported the line before ("already")."""

    dispute: Dispute
    outcome: Literal["filed", "joined", "already"]


@dataclass(frozen=True)
class Reporter:
    seat: int
    name: str  # who held the seat when they reported
    at: datetime
    reason: str


def _line(message: Message, reported: int) -> dict[str, Any]:
    return {"id": message.pk, "seat": message.seat.number,
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


def report_talk(seat_id: int, message_id: int, reason: str = "") -> Reported:
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
    with locked_game(seat.game_id) as game:  # one report of a game at a time
        if game.status == Game.Status.CANCELLED:
            raise ModerationError("no_disputes", _("The game was cancelled."))
        before = (TalkReport.objects.filter(seat=seat, dispute__talk=message)
                  .select_related("dispute").first())
        if before is not None:
            return Reported(before.dispute, "already")
        now = timezone.now()
        dispute = Dispute.objects.filter(talk=message, status=Dispute.Status.OPEN).first()
        if dispute is not None:
            TalkReport.objects.create(dispute=dispute, seat=seat, reason=reason, created_at=now)
            return Reported(dispute, "joined")
        _check_open_reports(seat)
        dispute = Dispute.objects.create(
            game=game, seat=seat, created_at=now,
            text=_("Table talk reported: “%(line)s” (seat %(seat)s). %(why)s") % {
                "line": message.text[:300], "seat": message.seat.shown_number,
                "why": reason or _("Reported table talk")},
            talk=message, talk_context=context_of(message))
        TalkReport.objects.create(dispute=dispute, seat=seat, reason=reason, created_at=now)
        dispute_mail.report_filed(dispute, now)
    return Reported(dispute, "filed")


def _check_open_reports(seat: Seat) -> None:
    """A seat files at most MAX_OPEN_REPORTS disputes about talk waiting at once (joining
    another seat's dispute files none)."""
    filed = TalkReport.objects.filter(seat=seat, dispute__seat=seat,
                                      dispute__status=Dispute.Status.OPEN)
    if filed.count() >= MAX_OPEN_REPORTS:
        raise ModerationError("too_many_reports", _(
            "You have %(max)s reports waiting for a moderator in this game already.")
            % {"max": MAX_OPEN_REPORTS})


def reporters(dispute: Dispute) -> list[Reporter]:
    """The dispute's reporters, first first, each named as the holder of their seat when
    they reported (the seat may have changed hands since: games.seats.core.history)."""
    reports = list(dispute.reports.select_related("seat").order_by("created_at", "id"))
    changes = seat_changes(dispute.game) if reports else []
    return [Reporter(report.seat.number, holder_then(report.seat, report.created_at, changes,
                                                 moderator=True),
                     report.created_at, report.reason)
            for report in reports]
