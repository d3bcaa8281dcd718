"""Standby volunteers' pages (games.handover.services.standby).

    GET/POST /standby/            sign up: the address gets a link to confirm (same answer
                                  whatever the address)
    GET      /standby/sent/       "look in your mailbox"
    GET/POST /standby/<token>/    the volunteer's private link: GET shows (confirm button,
                                  or the settings); POST confirms, saves, pauses, resumes,
                                  or leaves standby for good
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games.handover.core.handover_errors import HandoverError
from games.handover.core.handover_rows import Volunteer, find_volunteer
from games.handover.doors.handover_forms import StandbyChoicesForm, StandbySignupForm
from games.handover.services import standby
from games.kit import limits
from games.kit.client import client_address
from games.kit.responses import private, too_many


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    form = StandbySignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            standby.sign_up(form.cleaned_data["email"], form.choices(),
                            client_address(request), translation.get_language() or "")
        except limits.Limited as busy:
            return too_many(request, busy)
        except HandoverError as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("If this address can receive our emails, a link to "
                                        "confirm your standby is on its way to it. Look in "
                                        "your mailbox (and its spam folder)."))
            return redirect("games:standby-sent")
    status = 400 if request.method == "POST" else 200
    return render(request, "games/standby.html", {"form": form}, status=status)


@require_GET
def sent(request: HttpRequest) -> HttpResponse:
    return render(request, "games/standby_sent.html")


def _volunteer(token: str) -> Volunteer:
    volunteer = find_volunteer(token)
    if volunteer is None or not volunteer.email:
        raise Http404("No such standby link")
    return volunteer


@require_http_methods(["GET", "POST"])
def manage(request: HttpRequest, token: str) -> HttpResponse:
    volunteer = _volunteer(token)
    form = StandbyChoicesForm.of(volunteer)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "save":
            form = StandbyChoicesForm(request.POST)
            if form.is_valid():
                try:
                    standby.update(volunteer.pk, form.choices())
                except HandoverError as refused:
                    form.add_error(None, refused.message)
                else:
                    messages.success(request, _("Your standby choices were saved."))
                    return private(redirect("games:standby-manage", token=token))
            status = 400
        elif action in ("confirm", "pause", "resume", "leave"):
            return private(_act(request, volunteer, action, token))
        else:
            status = 400
            messages.error(request, _("Choose what to do."))
    volunteer.refresh_from_db()
    confirmed = volunteer.confirmed_at is not None and volunteer.left_at is None
    return private(render(request, "games/standby_manage.html", {
        "volunteer": volunteer, "confirmed": confirmed, "form": form, "token": token},
        status=status))


def _act(request: HttpRequest, volunteer: Volunteer, action: str, token: str) -> HttpResponse:
    try:
        if action == "confirm":
            standby.confirm(volunteer.pk)
            messages.success(request, _("You are on standby: when a seat that fits your "
                                        "choices is free, we email you an offer."))
        elif action in ("pause", "resume"):
            standby.pause_volunteer(volunteer.pk, paused=action == "pause")
            messages.success(request, _("Paused: no offers until you resume.")
                             if action == "pause" else _("Offers come again."))
        else:
            standby.leave(volunteer.pk)
            return render(request, "games/standby_left.html")
    except HandoverError as refused:
        messages.error(request, refused.message)
    return redirect("games:standby-manage", token=token)


def stop_offers(request: HttpRequest, box: str, token: str) -> HttpResponse:
    """The unsubscribe link of a standby or offer email: GET asks, POST stops every offer
    of a seat to that mailbox (games.handover.services.standby.refuse_offers)."""
    done = request.method == "POST"
    if done:
        standby.refuse_offers(box)
    return private(render(request, "games/stop_offers.html", {"done": done, "token": token}))
