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

from games.clock.core import clock_facts
from games.clock.core.refusals import ClockRefusal
from games.clock.services import nudges, table_pause
from games.game.core.game import Game
from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_object
from games.kit.responses import private
from games.kit.service_errors import ServiceError
from games.seats.core.seat import Seat
from games.seats.doors.access import refusal_answer, seat_api


def _answer(game: Game, seat: Seat, **extra: Any) -> JsonResponse:
    game.refresh_from_db()
    now = timezone.now()
    return private(JsonAnswer({**extra, "pause": clock_facts.api_pause(game, now),
                               "clock": clock_facts.api_clock(game, seat, now)}))


MAX_BODY = 16 * 1024


@seat_api("POST")
def api_nudge(request: HttpRequest, seat: Seat, secret: str) -> JsonResponse:
    try:
        game = nudges.nudge(seat.pk)
    except ServiceError as refused:
        return refusal_answer(refused)
    return _answer(game, seat, nudged=game.actor)


@seat_api("POST")
def api_pause(request: HttpRequest, seat: Seat, secret: str) -> JsonResponse:
    data = json_object(request, MAX_BODY, _('Send an object: {"action": "propose", '
                                        '"days": 3, "reason": "..."}.'))
    if isinstance(data, JsonResponse):
        return data
    action, days, reason = data.get("action"), data.get("days"), data.get("reason", "")
    try:
        if action == "propose":
            if isinstance(days, bool) or not isinstance(days, int):
                raise ClockRefusal("bad_pause", _('"days" must be a whole number.'))
            if not isinstance(reason, str):
                raise ClockRefusal("bad_pause", _('"reason" is text.'))
            game = table_pause.propose(seat.pk, days, reason)
        elif action == "agree":
            game = table_pause.agree(seat.pk)
        elif action == "end":
            game = table_pause.end(seat.pk)
        else:
            raise ClockRefusal("bad_pause", _('"action" must be propose, agree or end.'))
    except ServiceError as refused:
        return refusal_answer(refused)
    return _answer(game, seat)
