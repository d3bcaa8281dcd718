"""The seat page's table-talk control (POST with CSRF): mute or unmute another player's
talk for oneself (games.talk.services.muting; reporting a line is the moderators':
games.moderation.doors.talk_report_form). Back to the page's talk."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.kit.service_errors import ServiceError
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
