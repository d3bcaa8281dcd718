"""The clock through the JSON API (docs/api.md "The clock"): nudge the seat to act, and
the table's pause.

    POST /api/play/<token>/nudge   {}                                  -> {"nudged": seat}
    POST /api/play/<token>/pause   {"action": "propose", "days": 3, "reason": "..."}
                                   {"action": "agree"} | {"action": "end"}
                                   -> {"pause": {...}, "clock": {...}}

Refusals are the API's JSON errors: 400 bad input, 409 what the game does not allow now
(a second nudge, a second proposal, no pause to agree to); nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games.clock.core import clock_facts
from games.clock.services import nudges, table_pause
from games.game.core.game import Game, Seat
from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error, json_object
from games.kit.service_errors import ServiceError
from games.play.doors.api import MAX_BODY, _seat_within_limits, api_methods
from games.play.doors.seat_access import private, seat_locale

BAD_INPUT = {"bad_pause"}


def _refused(refused: ServiceError) -> JsonResponse:
    return json_error(400 if refused.code in BAD_INPUT else 409, refused.code, refused.message)


def _answer(game: Game, seat: Seat, **extra: Any) -> JsonResponse:
    game.refresh_from_db()
    now = timezone.now()
    return private(JsonAnswer({**extra, "pause": clock_facts.api_pause(game, now),
                               "clock": clock_facts.api_clock(game, seat, now)}))


@csrf_exempt
@api_methods("POST")
def api_nudge(request: HttpRequest, secret: str) -> JsonResponse:
    seat = _seat_within_limits(secret)
    if isinstance(seat, JsonResponse):
        return seat
    with seat_locale(seat):
        try:
            game = nudges.nudge(seat.pk)
        except ServiceError as refused:
            return _refused(refused)
        return _answer(game, seat, nudged=game.actor)


@csrf_exempt
@api_methods("POST")
def api_pause(request: HttpRequest, secret: str) -> JsonResponse:
    seat = _seat_within_limits(secret)
    if isinstance(seat, JsonResponse):
        return seat
    with seat_locale(seat):
        data = json_object(request, MAX_BODY, _('Send an object: {"action": "propose", '
                                            '"days": 3, "reason": "..."}.'))
        if isinstance(data, JsonResponse):
            return data
        action, days, reason = data.get("action"), data.get("days"), data.get("reason", "")
        try:
            if action == "propose":
                if isinstance(days, bool) or not isinstance(days, int):
                    raise ServiceError("bad_pause", _('"days" must be a whole number.'))
                if not isinstance(reason, str):
                    raise ServiceError("bad_pause", _('"reason" is text.'))
                game = table_pause.propose(seat.pk, days, reason)
            elif action == "agree":
                game = table_pause.agree(seat.pk)
            elif action == "end":
                game = table_pause.end(seat.pk)
            else:
                raise ServiceError("bad_pause", _('"action" must be propose, agree or end.'))
        except ServiceError as refused:
            return _refused(refused)
        return _answer(game, seat)
