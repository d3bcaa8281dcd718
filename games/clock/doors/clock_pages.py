"""The seat page's clock controls (POST with CSRF): nudge the seat to act, and the
table's pause (propose, agree, end). Back to the page's clock either way; a refusal is
the page's error message and changes nothing."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.clock.services import nudges, table_pause
from games.kit.service_errors import ServiceError
from games.seats.core.links import seat_path
from games.seats.core.seat import Seat
from games.seats.doors.access import with_seat


@require_POST
@with_seat
def seat_nudge(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        nudges.nudge(seat.pk)
    except ServiceError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The player has been nudged by email."))
    return redirect(seat_path(secret) + "#clock")


def _days(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        return 0  # refused by the service: a pause lasts 1 to N days


@require_POST
@with_seat
def seat_pause(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    action = request.POST.get("action", "")
    try:
        if action == "agree":
            table_pause.agree(seat.pk)
            messages.success(request, _("You agreed to the pause."))
        elif action == "end":
            table_pause.end(seat.pk)
            messages.success(request, _("Your wish to end the pause is noted."))
        else:
            table_pause.propose(seat.pk, _days(request.POST.get("days", "")),
                                request.POST.get("reason", ""))
            messages.success(request, _("Your pause is proposed to the table."))
    except ServiceError as refused:
        messages.error(request, refused.message)
    return redirect(seat_path(secret) + "#clock")
