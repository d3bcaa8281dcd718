"""The public pages of tournaments: /tournaments/ (the events, no address: joining needs a
home link) and /tournaments/<id>/ (an event: its settings, rounds and standings), and
their JSON twins GET /api/tournaments/ and GET /api/tournaments/<id>/ (docs/api.md
"Tournaments"). GET only; nothing here is secret.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error
from games.people.doors.address_form import AddressForm
from games.tournaments.services.event_list import event_page, listed


def _get_only(request: HttpRequest) -> JsonResponse | None:
    if request.method in ("GET", "HEAD"):
        return None
    response = json_error(405, "method_not_allowed", _("Use %(methods)s here.")
                          % {"methods": "GET, HEAD"})
    response["Allow"] = "GET, HEAD"
    return response


@require_GET
def tournaments_page(request: HttpRequest) -> HttpResponse:
    return render(request, "games/tournaments.html", {"events": listed(),
                                                      "form": AddressForm()})


@require_GET
def tournament_page(request: HttpRequest, event_id: int) -> HttpResponse:
    found = event_page(event_id)
    if found is None:
        raise Http404(_("There is no such tournament."))
    return render(request, "games/tournament.html", {"page": found, "event": found.event})


@csrf_exempt
def api_tournaments(request: HttpRequest) -> JsonResponse:
    return _get_only(request) or JsonAnswer(
        {"tournaments": [event.as_json() for event in listed()]})


@csrf_exempt
def api_tournament(request: HttpRequest, event_id: int) -> JsonResponse:
    refused = _get_only(request)
    if refused is not None:
        return refused
    found = event_page(event_id)
    if found is None:
        return json_error(404, "no_tournament", _("There is no such tournament."))
    return JsonAnswer(found.as_json())
