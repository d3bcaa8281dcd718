"""The seat page's "find someone for my seat" box (games.handover): leave, stay after all,
invite someone to an open seat of the game. Every action POSTs (CSRF) and redirects back."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.game.core.game import WhileOpen
from games.handover.core.handover_errors import HandoverError
from games.handover.doors.handover_forms import InviteToSeatForm
from games.handover.services import offers, opening
from games.seats.core.links import seat_path
from games.seats.core.seat import Seat
from games.seats.doors.access import with_seat

ANCHOR = "#handover"


def left_message(while_open: str) -> str:
    if while_open == WhileOpen.WAIT:
        return _("We are looking for someone to take your seat; the game waits for them. "
                 "Your link works until someone takes over, and you can still stay.")
    return _("We are looking for someone to take your seat; a bot plays it meanwhile. "
             "Your link works until someone takes over, and you can still stay.")


@require_POST
@with_seat
def seat_leave(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        opened = opening.open_seat(seat.pk)
    except HandoverError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, left_message(opened.while_open))
    return redirect(seat_path(secret) + ANCHOR)


@require_POST
@with_seat
def seat_stay(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        opening.stay(seat.pk)
    except HandoverError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Welcome back: the seat is yours again."))
    return redirect(seat_path(secret) + ANCHOR)


@require_POST
@with_seat
def seat_invite(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    form = InviteToSeatForm(request.POST)
    if not form.is_valid():
        # The address's own refusal (games.people.core.deliverable) says what to write instead.
        messages.error(request, " ".join(str(error) for error in form["email"].errors)
                       or _("Give a valid email address."))
        return redirect(seat_path(secret) + ANCHOR)
    email = form.cleaned_data["email"]
    try:
        offers.invite_by_table(seat, form.cleaned_data["open_seat"], email)
    except HandoverError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The offer is on its way to %(address)s.")
                         % {"address": email})
    return redirect(seat_path(secret) + ANCHOR)
