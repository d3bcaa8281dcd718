"""The home's JSON twin: GET /api/me/<token>/ lists every game of the home link's address
(README "JSON API"), in the home's language like its page. 404 for an unknown or rotated
link, 429 past its limit (counted per link, like a seat's API)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games.home.services.address import address_for_home_token
from games.home.services.listing import Row, home_of
from games.home.services.page import language_and_zone
from games.home.services.tables_part import home_json
from games.kit import limits
from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error
from games.kit.link_tokens import token_digest
from games.kit.responses import private


def game_json(row: Row) -> dict[str, Any]:
    # `status` is the game's, except "waiting_for_you" while it waits for this seat's
    # acceptance (`your_turn` stays false: there is no turn before the game starts).
    # A game left: `left` true, no link once the seat is someone else's, and who won.
    answer = {"game": row.game, "name": row.name, "ruleset": row.ruleset,
              "status": row.home_status,
              "seat": row.seat, "your_turn": row.your_turn,
              "deadline": row.deadline.isoformat() if row.deadline else None,
              "link": row.link or None, "api": row.api or None, "left": row.left}
    if row.left:
        answer["winners"] = list(row.winners) if row.status == "finished" else None
    return answer


@csrf_exempt
def api_home(request: HttpRequest, token: str) -> JsonResponse:
    if request.method not in ("GET", "HEAD"):
        response = json_error(405, "method_not_allowed",
                          _("Use %(methods)s here.") % {"methods": "GET, HEAD"})
        response["Allow"] = "GET, HEAD"
        return response
    digest = token_digest(token)
    if digest is not None:
        try:
            limits.hit("api_home", f"home:{digest}")
        except limits.Limited as busy:
            response = json_error(429, "too_many_requests", _(
                "Too many requests for this link; try again in %(n)s seconds.")
                % {"n": busy.retry_after})
            response["Retry-After"] = str(busy.retry_after)
            return response
    address = address_for_home_token(token)
    if address is None:
        return json_error(404, "not_found", _("There is no home with this link."))
    # In the home's language, as its page: a game's name ("Open table 7") is the reader's.
    with translation.override(language_and_zone(address)[0]):
        return private(JsonAnswer({"games": [game_json(row) for row in home_of(address).rows],
                                   **home_json(address)}))
