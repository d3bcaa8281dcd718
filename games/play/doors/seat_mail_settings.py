"""A seat's email and vacation settings, the forms on the seat page (the home's forms
use the same fields: games.home.doors.home_pages)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.clock.services import vacations
from games.moves.services import seat_services as services
from games.seats.core.links import seat_path
from games.seats.core.seat import Seat
from games.seats.doors.access import with_seat

MAX_VACATION_HOURS = 24 * 366


@require_POST
@with_seat
def seat_emails(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        services.set_email_mode([seat.pk], request.POST.get("email_mode", ""))
    except services.ServiceError as refused:
        messages.error(request, refused.message)
    else:
        if request.POST.get("email_options"):  # the form's checkboxes were sent with it
            services.set_email_options([seat.pk], **email_options(request))
        messages.success(request, _("Your email setting was saved."))
    return redirect(seat_path(secret) + "#emails")


def email_options(request: HttpRequest) -> dict[str, bool]:
    """The email form's checkboxes (an unticked box is not sent at all)."""
    return {"talk_in_emails": bool(request.POST.get("talk_in_emails")),
            "skip_seen_turns": bool(request.POST.get("skip_seen_turns"))}


@require_POST
@with_seat
def seat_vacation(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        if request.POST.get("action") == "end":
            vacations.end_vacation(seat.pk)
            messages.success(request, _("Welcome back: your vacation has ended."))
        else:
            hours = _hours(request.POST.get("hours", ""))
            vacations.take_vacation(seat.pk, timedelta(hours=hours))
            messages.success(request, _("Enjoy your vacation: your clock is stopped."))
    except services.ServiceError as refused:
        messages.error(request, refused.message)
    return redirect(seat_path(secret) + "#emails")


def _hours(raw: str) -> int:
    try:
        hours = int(raw)
    except ValueError:
        hours = 0
    if not 0 < hours <= MAX_VACATION_HOURS:
        raise services.ServiceError("bad_vacation", _("Choose how long your vacation is."))
    return hours
