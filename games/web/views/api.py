"""The JSON API for non-browser clients (README "JSON API").

    GET  /api/play/<secret>/        {"version", "seat", "view", "legal_moves"}
    POST /api/play/<secret>/moves   {"version": V, "move": {...}}
         200 {"version", "seat", "view", "legal_moves"} | 400 malformed | 404 unknown secret
         409 stale version | 422 illegal move or game not accepting moves
Errors are {"error": {"code", "message"}}.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from games import engine
from games.models import Game, Seat
from games.models.links import find_seat
from games.play import services
from games.present import pages
from games.present.move_errors import explain
from games.web.views.common import private, seat_locale

MAX_BODY = 16 * 1024


def _error(status: int, code: str, message: str, **extra: Any) -> JsonResponse:
    return private(JsonResponse({"error": {"code": code, "message": message, **extra}},
                                status=status))


def _not_found() -> JsonResponse:
    return _error(404, "not_found", _("There is no seat with this link."))


def _payload(game: Game, seat: Seat) -> JsonResponse:
    view, moves = pages.view_and_moves(game, seat)
    return private(JsonResponse({
        "version": game.version,
        "seat": seat.number,
        "view": view,
        "legal_moves": moves,
    }))


@require_GET
def api_seat(request: HttpRequest, secret: str) -> JsonResponse:
    seat = find_seat(secret)
    if seat is None:
        return _not_found()
    return _payload(seat.game, seat)


# No CSRF token here: this endpoint is for non-browser clients, and the credential is
# the secret in the URL, which a cross-site page cannot know. The HTML forms keep CSRF.
@csrf_exempt
@require_POST
def api_move(request: HttpRequest, secret: str) -> JsonResponse:
    seat = find_seat(secret)
    if seat is None:
        return _not_found()
    with seat_locale(seat):
        return _move(request, seat)


def _move(request: HttpRequest, seat: Seat) -> JsonResponse:
    body = _parse(request)
    if isinstance(body, JsonResponse):
        return body
    version, move = body
    try:
        game = services.submit_move(seat, version, move)
    except services.StaleVersion as stale:
        return _error(409, stale.code, stale.message, version=stale.current)
    except engine.MalformedMove as bad:  # a subclass of IllegalMove: check it first
        return _error(400, bad.code, explain(bad, seat.game.ruleset), params=bad.params)
    except engine.IllegalMove as refused:
        return _error(422, refused.code, explain(refused, seat.game.ruleset),
                      params=refused.params)
    except services.GameNotPlayable as closed:
        return _error(422, closed.code, closed.message)
    return _payload(game, seat)


def _parse(request: HttpRequest) -> tuple[int, dict[str, Any]] | JsonResponse:
    if len(request.body) > MAX_BODY:
        return _error(400, "too_large", _("The request body is too large."))
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return _error(400, "bad_json", _("The request body is not valid JSON."))
    if not isinstance(data, dict):
        return _error(400, "bad_request", _('Send an object: {"version": V, "move": {...}}.'))
    version, move = data.get("version"), data.get("move")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        return _error(400, "bad_version", _('"version" must be the whole number you last saw.'))
    if not isinstance(move, dict):
        return _error(400, "not_an_object", _('"move" must be a JSON object.'))
    return version, move
