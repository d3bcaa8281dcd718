"""Playing with strangers from a home: "Find me a table", joining a listed table, leaving
a forming one, the public name and the ratings listing (HTML forms, POST with CSRF), and
the JSON twins POST /api/me/<token>/tables and POST /api/me/<token>/tables/<id>/leave
(docs/api.md "Open tables"). Thin over games.tables and games.tables.services.naming; every
refusal is a clear answer in the endpoint's format and changes nothing.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.home.doors.home_pages import render_home, with_home
from games.home.services import page
from games.kit import limits
from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error, json_object
from games.kit.responses import private, too_many
from games.kit.service_errors import ServiceError, http_status
from games.people.doors.home_api_access import home_api
from games.tables.core.wishes import TableError, check_types, read_wish
from games.tables.services import forming, naming

MAX_BODY = 4096


def _back(token: str, anchor: str = "#tables") -> HttpResponse:
    return redirect(page.home_path(token) + anchor)


def _refused(request: HttpRequest, address: str, token: str, refused: ServiceError,
             status: int) -> HttpResponse:
    """The home again, with the reason and the refusal's status (4xx): nothing changed."""
    messages.error(request, refused.message)
    return render_home(request, address, token, status=status)


def _form_wish(post: QueryDict) -> dict[str, Any]:
    """The "Find me a table" form as the JSON API's object (read_wish checks it): a clock
    preset chosen sets the pace, and the hours per move box is left out."""
    wish: dict[str, Any] = {
        "ruleset": post.get("ruleset", "base"), "players": post.get("players", ""),
        "language": post.get("language", ""), "rated": post.get("rated") == "on",
        "bots_fill": post.get("bots_fill") == "on", "anonymous": post.get("anonymous") == "on"}
    if post.get("clock"):
        wish["clock"] = post.get("clock", "")
        return wish
    hours = 0  # no number: refused by read_wish as a pace out of range
    with contextlib.suppress(ValueError):
        hours = int(post.get("hours_per_move", ""))
    return {**wish, "hours_per_move": hours}


def _seated_message(seated: forming.Seated) -> str:
    if seated.status == "started":
        return _("The table is full and the game has started: it is on your home, and your "
                 "own link is on its way to your mailbox.")
    return _("You sit at table %(table)s: %(joined)s of %(seats)s players so far.") % {
        "table": seated.table, "joined": seated.joined, "seats": seated.seats}


@require_POST
@with_home
def home_find_table(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        limits.hit("tables_home", address)
        wish = read_wish(_form_wish(request.POST), language=page.language_and_zone(address)[0])
        seated = forming.find_table(address, wish)
    except limits.Limited as busy:
        return too_many(request, busy)
    except TableError as refused:
        return _refused(request, address, token, refused, refused.status)
    messages.success(request, _seated_message(seated))
    return _back(token)


def _table_id(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("table", ""))
    except ValueError:
        return 0  # no such table: refused as one


@require_POST
@with_home
def home_join_table(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        limits.hit("tables_home", address)
        seated = forming.join_table(address, _table_id(request))
    except limits.Limited as busy:
        return too_many(request, busy)
    except TableError as refused:
        return _refused(request, address, token, refused, refused.status)
    messages.success(request, _seated_message(seated))
    return _back(token)


@require_POST
@with_home
def home_leave_table(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        forming.leave_table(address, _table_id(request))
    except TableError as refused:
        return _refused(request, address, token, refused, refused.status)
    messages.success(request, _("You have left the table."))
    return _back(token)


def _listing_answer(post: QueryDict) -> bool | None:
    """The name form's answer to whether the ratings are listed (an unticked box sends
    nothing); None when the form did not ask: the form asks only before the first name,
    later the separate list/unlist control changes the choice."""
    if post.get("listing_asked") != "1":
        return None
    return post.get("listed") == "1"


@require_POST
@with_home
def home_name(request: HttpRequest, address: str, token: str) -> HttpResponse:
    listed = _listing_answer(request.POST)
    try:
        limits.hit("name_home", address)
        chosen = naming.choose_name(address, request.POST.get("name", ""), listed=listed)
    except limits.Limited as busy:
        return too_many(request, busy)
    except ServiceError as refused:
        return _refused(request, address, token, refused, http_status(refused))
    messages.success(request, _("Your public name is %(name)s.") % {"name": chosen.name})
    if listed:
        messages.success(request, _("Your ratings are listed under your public name."))
    return _back(token, "#public-name")


@require_POST
@with_home
def home_ratings_listed(request: HttpRequest, address: str, token: str) -> HttpResponse:
    listed = request.POST.get("listed") == "1"
    if not naming.list_ratings(address, listed=listed):
        return _refused(request, address, token, ServiceError("no_name", _(
            "Choose a public name first: the ratings list shows it.")), 409)
    if listed:
        messages.success(request, _("Your ratings are listed under your public name."))
    else:
        messages.success(request, _("Your ratings are no longer listed."))
    return _back(token, "#public-name")


# ---- the JSON twins -----------------------------------------------------------------------


def _table_error(refused: TableError) -> JsonResponse:
    """The refusal in the API's envelope; a bad field is named (`field`)."""
    extra = {"field": refused.field} if refused.field else {}
    return json_error(refused.status, refused.code, refused.message, **extra)


# Tables and names: 405 not a POST, 429 past the limit (per link), 404 unknown link.
@home_api("POST", limit="tables_home")
def api_home_tables(request: HttpRequest, address: str) -> JsonResponse:
    """POST {"ruleset", "players", "hours_per_move" or "clock", "language", "rated",
    "bots_fill", "anonymous"}:
    find a table (or {"table": id}: join that one). Every field's type is checked before
    anything else; an empty body is refused like any body that is no JSON object."""
    with page.home_locale(address):
        data = json_object(request, MAX_BODY, _("Send a JSON object."))
        if isinstance(data, JsonResponse):
            return data
        try:
            check_types(data)
            if "table" in data:
                seated = forming.join_table(address, data["table"])
            else:
                wish = read_wish(data, language=page.language_and_zone(address)[0])
                seated = forming.find_table(address, wish)
        except TableError as refused:
            return _table_error(refused)
        return private(JsonAnswer(seated.as_json()))


@home_api("POST", limit="tables_home")
def api_home_leave(request: HttpRequest, address: str, table_id: int) -> JsonResponse:
    with page.home_locale(address):
        try:
            seated = forming.leave_table(address, table_id)
        except TableError as refused:
            return _table_error(refused)
        return private(JsonAnswer(seated.as_json()))


@home_api("POST", limit="tables_home")
def api_home_name(request: HttpRequest, address: str) -> JsonResponse:
    """POST {"name": "...", "listed": true}: choose or change the public name, and list the
    ratings under it or not ("listed" left out keeps the choice) -> {"name", "changed_at",
    "listed"}; 400 bad_name or bad_request ("listed" not true or false), 409 name_taken (a
    look-alike too) or too_soon (once a month)."""
    with page.home_locale(address):
        data = json_object(request, MAX_BODY, _("Send a JSON object."))
        if isinstance(data, JsonResponse):
            return data
        name = data.get("name")
        if not isinstance(name, str):
            return json_error(400, "bad_name", _('Send your public name as "name".'))
        listed = data.get("listed")
        if "listed" in data and not isinstance(listed, bool):
            return json_error(400, "bad_request", _("%(field)s is true or false.")
                              % {"field": "listed"})
        try:
            limits.hit("name_home", address)
            chosen = naming.choose_name(address, name, listed=listed)
        except limits.Limited as busy:
            response = json_error(429, "too_many_requests", _(
                "Too many requests for this link; try again in %(n)s seconds.")
                % {"n": busy.retry_after})
            response["Retry-After"] = str(busy.retry_after)
            return response
        except ServiceError as refused:
            return json_error(http_status(refused), refused.code, refused.message)
        return private(JsonAnswer({"name": chosen.name,
                                   "changed_at": chosen.changed_at.isoformat(),
                                   "listed": chosen.listed}))
