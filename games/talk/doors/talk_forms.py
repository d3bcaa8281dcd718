"""The seat page's table-talk controls (POST with CSRF): mute or unmute another player's
talk for oneself (games.talk.services.muting), and report a line to the moderators
(games.moderation.services.talk_reports). Back to the page's talk either way."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.kit import limits
from games.kit.responses import too_many
from games.kit.service_errors import ServiceError
from games.moderation.services.talk_reports import report_talk
from games.seats.core.links import seat_path
from games.seats.core.seat import Seat
from games.seats.doors.access import with_seat
from games.talk.services import muting


def _number(request: HttpRequest, field: str) -> int:
    try:
        return int(request.POST.get(field, ""))
    except ValueError:
        return -1  # refused by the service as no such seat or line


@require_POST
@with_seat
def seat_mute(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    number = _number(request, "seat")
    try:
        if request.POST.get("action") == "unmute":
            muting.unmute(seat, number)
            messages.success(request, _("You see this player's talk again."))
        else:
            muting.mute(seat, number)
            messages.success(request, _("This player's talk is hidden from your page and "
                                        "your emails; the others still see it."))
    except ServiceError as refused:
        messages.error(request, refused.message)
    return redirect(seat_path(secret) + "#talk")


@require_POST
@with_seat
def seat_report(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        limits.hit("report_seat", f"seat:{seat.pk}")
    except limits.Limited as busy:
        return too_many(request, busy)
    try:
        reported = report_talk(seat.pk, _number(request, "message"),
                               request.POST.get("reason", ""))
    except ServiceError as refused:
        messages.error(request, refused.message)
    else:
        if reported.outcome == "already":
            messages.info(request, _("You have reported this line already: the moderators "
                                     "have it, nothing more was sent."))
        else:
            messages.success(request, _("Thank you: the moderators will read the line and "
                                        "what was said around it."))
    return redirect(seat_path(secret) + "#talk")
