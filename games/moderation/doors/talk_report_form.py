"""Report a line of table talk to the moderators, from the seat page (POST with CSRF;
games.moderation.services.talk_reports: reports of one line are one dispute). Back to the
page's talk."""

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


def _line_number(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("message", ""))
    except ValueError:
        return -1  # refused by the service as no such line


@require_POST
@with_seat
def seat_report(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        limits.hit("report_seat", f"seat:{seat.pk}")
    except limits.Limited as busy:
        return too_many(request, busy)
    try:
        reported = report_talk(seat.pk, _line_number(request),
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
