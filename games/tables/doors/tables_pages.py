"""The public pages of playing with strangers: /tables/ (the forming tables and how many
wait per language and pace, no address: joining needs a home link) and /ratings/ (the
players with a public name who opted in), and their JSON twins GET /api/tables/ and GET
/api/ratings/?ruleset=base (docs/api.md). GET only; nothing here is secret.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from games.kit.json_answer import JsonAnswer
from games.kit.replica_reads import reads_from_replica
from games.people.doors.address_form import AddressForm
from games.ratings.services.shown import RULESETS, listed
from games.tables.core.table_filters import PACES, TableFilter, read_filter
from games.tables.core.wishes import TableError
from games.tables.services.table_list import forming, waiting


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonAnswer({"error": {"code": code, "message": message}}, status=status)


def _get_only(request: HttpRequest) -> JsonResponse | None:
    if request.method in ("GET", "HEAD"):
        return None
    response = _error(405, "method_not_allowed", _("Use %(methods)s here.")
                      % {"methods": "GET, HEAD"})
    response["Allow"] = "GET, HEAD"
    return response


@require_GET
@reads_from_replica()
def tables_page(request: HttpRequest) -> HttpResponse:
    """The forming tables the reader's filter lets through (their language unless they
    choose another); a filter we do not know is the page again, 400, with the reason."""
    try:
        chosen = read_filter(request.GET, translation.get_language() or "en")
    except TableError as refused:
        return render(request, "games/tables.html", {
            "tables": [], "form": AddressForm(), "filter_error": refused.message,
            "waiting": waiting(), **_filter_choices(TableFilter())}, status=400)
    return render(request, "games/tables.html", {
        "tables": forming(chosen=chosen), "form": AddressForm(), "waiting": waiting(),
        **_filter_choices(chosen)})


def _filter_choices(chosen: TableFilter) -> dict[str, Any]:
    return {"chosen": chosen.as_json(), "languages": settings.LANGUAGES,
            "rulesets": RULESETS, "paces": list(PACES)}


@csrf_exempt
@reads_from_replica()
def api_tables(request: HttpRequest) -> JsonResponse:
    refused = _get_only(request)
    if refused is not None:
        return refused
    try:
        chosen = read_filter(request.GET, translation.get_language() or "en")
    except TableError as bad:
        return JsonAnswer({"error": {"code": bad.code, "message": bad.message,
                                     "field": bad.field}}, status=400)
    return JsonAnswer({"filter": chosen.as_json(),
                       "tables": [table.as_json() for table in forming(chosen=chosen)],
                       # Every forming table, whatever the filter: {language: {pace: n}}.
                       "waiting": waiting().as_json()})


def _ruleset(request: HttpRequest) -> str | None:
    ruleset = request.GET.get("ruleset", "base")
    return ruleset if ruleset in RULESETS else None


@require_GET
@reads_from_replica()
def ratings_page(request: HttpRequest) -> HttpResponse:
    ruleset = _ruleset(request)
    if ruleset is None:
        return render(request, "games/ratings.html", {"rulesets": RULESETS, "ruleset": "",
                                                      "players": []}, status=400)
    return render(request, "games/ratings.html", {"rulesets": RULESETS, "ruleset": ruleset,
                                                  "players": listed(ruleset)})


@csrf_exempt
@reads_from_replica()
def api_ratings(request: HttpRequest) -> JsonResponse:
    refused = _get_only(request)
    if refused is not None:
        return refused
    ruleset = _ruleset(request)
    if ruleset is None:
        return _error(400, "unknown_ruleset", _("Unknown ruleset %(ruleset)s: choose base or "
                                                "saboteur2.")
                      % {"ruleset": request.GET.get("ruleset", "")})
    return JsonAnswer({"ruleset": ruleset,
                       "players": [item.as_json() for item in listed(ruleset)]})
