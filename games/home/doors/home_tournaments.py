"""Tournaments from a home: joining an event open for sign-up and leaving it before it
starts, and the host cancelling their own event while it is open for sign-up (HTML
forms, POST with CSRF; the cancel asks "are you sure?" first), and the JSON twins POST
/api/me/<token>/tournaments/<id>/join, .../leave and .../cancel (docs/api.md
"Tournaments"). The host changes their event while sign-up is open on its edit page
(/me/<token>/tournaments/<id>/edit) or POST /api/me/<token>/tournaments/<id>/edit
(games.tournaments.services.event_changes). Thin over games.tournaments.services.entries,
.hosting and .event_changes; every refusal is a clear answer in the endpoint's format
(400, 404, 405, 409, 429) and changes nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.home.doors.home_pages import render_home, with_home
from games.home.services import page
from games.kit import limits
from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error, json_object
from games.kit.responses import private, too_many
from games.people.doors.home_api_access import home_api
from games.tournaments.core.event_settings import TournamentError
from games.tournaments.doors.event_form import EventEditForm
from games.tournaments.doors.event_hosting import BODY_LIMIT  # the creation's
from games.tournaments.services import entries, event_changes, hosting
from games.tournaments.services.event_list import listed


def _event_id(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("tournament", ""))
    except ValueError:
        return 0  # no such event: refused as one


def _refused(request: HttpRequest, address: str, token: str,
             refused: TournamentError) -> HttpResponse:
    messages.error(request, refused.message)
    return render_home(request, address, token, status=refused.status)


@require_POST
@with_home
def home_join_tournament(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        limits.hit("tables_home", address)
        joined = entries.join_event(address, _event_id(request))
    except limits.Limited as busy:
        return too_many(request, busy)
    except TournamentError as refused:
        return _refused(request, address, token, refused)
    messages.success(request, _("You are in tournament %(n)s: %(joined)s of %(cap)s players "
                                "so far. Your seat links come by email when round 1 is "
                                "paired.") % {"n": joined.tournament, "joined": joined.players,
                                              "cap": joined.cap})
    return redirect(page.home_path(token) + "#tournaments")


@require_POST
@with_home
def home_leave_tournament(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        entries.leave_event(address, _event_id(request))
    except TournamentError as refused:
        return _refused(request, address, token, refused)
    messages.success(request, _("You have left the tournament."))
    return redirect(page.home_path(token) + "#tournaments")


@require_POST
@with_home
def home_cancel_tournament(request: HttpRequest, address: str, token: str) -> HttpResponse:
    """The host cancels an event of theirs still open for sign-up. The home's button asks
    first: a page naming the event and who is told, with a box to tick (`sure`; nothing
    changes, the box unticked shows the page again with the error); its POST with the
    box ticked cancels."""
    event_id = _event_id(request)
    if request.POST.get("sure") != "on":
        try:
            event = hosting.to_cancel(address, event_id)
        except TournamentError as refused:
            return _refused(request, address, token, refused)
        asked = "asked" in request.POST  # the page's own POST, its box left unticked
        return render(request, "games/tournament_cancel.html", {
            "event": listed([event])[0], "token": token,
            "error": _("Tick the box to confirm that you want to cancel the tournament.")
            if asked else ""}, status=400 if asked else 200)
    try:
        limits.hit("tables_home", address)
        event = hosting.cancel_hosted(address, event_id)
    except limits.Limited as busy:
        return too_many(request, busy)
    except TournamentError as refused:
        return _refused(request, address, token, refused)
    messages.success(request, _("You cancelled the tournament “%(name)s”. Its players and "
                                "you get an email saying so.") % {"name": event.name})
    return redirect(page.home_path(token) + "#tournaments")


@require_http_methods(["GET", "POST"])
@with_home
def home_edit_tournament(request: HttpRequest, address: str, token: str,
                         event_id: int) -> HttpResponse:
    """The host's edit page of an event open for sign-up: GET shows the form filled with
    its settings (nothing changes); a valid POST changes them and goes back to the home;
    bad input shows the form again with the errors (400) and changes nothing."""
    try:
        event = event_changes.to_edit(address, event_id)
    except TournamentError as refused:
        return _refused(request, address, token, refused)
    form = EventEditForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            limits.hit("tables_home", address)
            event = event_changes.edit_hosted(address, event_id, form.event_settings())
        except limits.Limited as busy:
            return too_many(request, busy)
        except TournamentError as refused:
            if refused.status != 400:  # it started or went meanwhile
                return _refused(request, address, token, refused)
            form.add_error(refused.field if refused.field in form.fields else None,
                           refused.message)
        else:
            messages.success(request, _("The tournament “%(name)s” is changed.")
                             % {"name": event.name})
            return redirect(page.home_path(token) + "#tournament-" + str(event.pk))
    return render(request, "games/tournament_edit.html", {
        "form": form, "event": listed([event])[0], "token": token},
        status=400 if request.method == "POST" else 200)


def _act(address: str, event_id: int, *, join: bool) -> JsonResponse:
    with page.home_locale(address):
        try:
            joined = (entries.join_event if join else entries.leave_event)(address, event_id)
        except TournamentError as refused:
            extra = {"field": refused.field} if refused.field else {}
            return json_error(refused.status, refused.code, refused.message, **extra)
        return private(JsonAnswer(joined.as_json()))


@home_api("POST", limit="tables_home")
def api_join_tournament(request: HttpRequest, address: str, event_id: int) -> JsonResponse:
    return _act(address, event_id, join=True)


@home_api("POST", limit="tables_home")
def api_leave_tournament(request: HttpRequest, address: str, event_id: int) -> JsonResponse:
    return _act(address, event_id, join=False)


@home_api("POST", limit="tables_home")
def api_cancel_tournament(request: HttpRequest, address: str, event_id: int) -> JsonResponse:
    """POST (no body): the host cancels their event open for sign-up -> the event as the
    lists show it, `status` "cancelled"."""
    with page.home_locale(address):
        try:
            event = hosting.cancel_hosted(address, event_id)
        except TournamentError as refused:
            return json_error(refused.status, refused.code, refused.message)
        return private(JsonAnswer(listed([event])[0].as_json()))


@home_api("POST", limit="tables_home")
def api_edit_tournament(request: HttpRequest, address: str, event_id: int) -> JsonResponse:
    """POST a JSON object of the settings to change (the creation's names): the host
    changes their event open for sign-up -> the event as the lists show it."""
    with page.home_locale(address):
        data = json_object(request, BODY_LIMIT, _(
            "Send the settings to change as a JSON object."))
        if isinstance(data, JsonResponse):
            return data
        try:
            event = event_changes.edit_hosted(address, event_id, data)
        except TournamentError as refused:
            extra = {"field": refused.field} if refused.field else {}
            return json_error(refused.status, refused.code, refused.message, **extra)
        return private(JsonAnswer(listed([event])[0].as_json()))
