"""A host's own tournament: the page /tournaments/new/ (confirmed by email) and the home's
JSON twin (games.tournaments.services.hosting; docs/api.md "Tournaments").

    GET/POST /tournaments/new/                  the form; a valid POST emails the host a
                                                confirmation link, then /tournaments/new/sent/
    GET      /tournaments/new/sent/             "check your mailbox"
    GET/POST /tournaments/confirm/<token>/      the settings and a button; POST creates it
    POST     /api/me/<token>/tournaments        an event hosted by the home's address: 201

Bad input: the form again with the errors (400), or 400 JSON naming the field; nothing
is kept. Too many: 429 with Retry-After.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games.clock.core.clock_presets import clock_words
from games.kit import limits
from games.kit.client import client_address
from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error, json_object
from games.kit.responses import private, too_many
from games.people.doors.home_api_access import home_api
from games.tournaments.core.event_settings import TournamentError, stored_clock
from games.tournaments.doors.event_form import EventForm
from games.tournaments.services import hosting
from games.tournaments.services.event_list import listed

BODY_LIMIT = 4096


@require_http_methods(["GET", "POST"])
def new_event(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            hosting.request_event(
                form.event_settings(), host_email=form.cleaned_data["host_email"],
                client=client_address(request), language=translation.get_language() or "")
        except limits.Limited as busy:
            return too_many(request, busy)
        except TournamentError as refused:
            form.add_error(refused.field if refused.field in form.fields else None,
                           refused.message)
        else:
            # Redirect after POST: a reload shows the page, it does not ask again.
            return redirect("games:tournament-sent")
    status = 400 if request.method == "POST" else 200
    return render(request, "games/tournament_new.html", {"form": form}, status=status)


@require_GET
def event_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "games/tournament_sent.html")


@require_http_methods(["GET", "POST"])
def confirm_event(request: HttpRequest, token: str) -> HttpResponse:
    row = hosting.pending_request(token)
    if row is None:
        raise Http404(_("There is no such tournament to confirm."))
    refused = ""
    if request.method == "POST":
        try:
            event = hosting.confirm_request(row.pk)
        except TournamentError as error:
            refused = error.message  # e.g. the sign-up window closed meanwhile
        else:
            return redirect("games:tournament", event_id=event.pk)
    preview, words = None, ""
    if row.tournament is None:
        try:
            preview = hosting.checked(row.settings)
        except TournamentError as error:
            refused = refused or error.message
        else:
            words = clock_words(preview.hours_per_move, stored_clock(preview.clock))
    return private(render(request, "games/tournament_confirm.html", {
        "preview": preview, "clock_words": words, "refused": refused,
        "created": listed([row.tournament])[0] if row.tournament else None},
        status=400 if refused else 200))


@home_api("POST", limit="event_home")
def api_host_event(request: HttpRequest, address: str) -> JsonResponse:
    data = json_object(request, BODY_LIMIT, _("Send the tournament's settings as a JSON "
                                              "object."))
    if isinstance(data, JsonResponse):
        return data
    try:
        event = hosting.create_from_home(address, data)
    except TournamentError as refused:
        extra = {"field": refused.field} if refused.field else {}
        return json_error(refused.status, refused.code, refused.message, **extra)
    return private(JsonAnswer(listed([event])[0].as_json(), status=201))
