"""The home's JSON twin: GET /api/me/<token>/ lists every game of the home link's address
(README "JSON API"), in the home's language like its page. 404 for an unknown or rotated
link, 429 past its limit (counted per link, like a seat's API)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils import translation

from games.home.services.listing import Row, home_of
from games.home.services.next_game import waiting_count
from games.home.services.page import language_and_zone
from games.home.services.tables_part import home_json
from games.home.services.tournaments_part import tournaments_json
from games.kit.json_answer import JsonAnswer
from games.kit.responses import private
from games.people.doors.home_api_access import home_api


def game_json(row: Row) -> dict[str, Any]:
    # `status` is the game's, except "waiting_for_you" while it waits for this seat's
    # acceptance (`your_turn` stays false: there is no turn before the game starts).
    # A game left: `left` true, no link once the seat is someone else's, and who won.
    answer = {"game": row.game, "name": row.name, "ruleset": row.ruleset,
              "status": row.home_status,
              "seat": row.seat, "your_turn": row.your_turn,
              "deadline": row.deadline.isoformat() if row.deadline else None,
              "link": row.link or None, "api": row.api or None, "left": row.left}
    if not row.left:  # the talk lines of the seat's game it has not read yet
        answer["unread_talk"] = row.unread_talk
    if row.left:
        answer["winners"] = list(row.winners) if row.status == "finished" else None
    return answer


@home_api("GET", "HEAD", limit="api_home")
def api_home(request: HttpRequest, address: str) -> JsonResponse:
    # In the home's language, as its page: a game's name ("Open table 7") is the reader's.
    with translation.override(language_and_zone(address)[0]):
        return private(JsonAnswer({"games": [game_json(row) for row in home_of(address).rows],
                                   # The next game in one tap: how many wait, and where
                                   # to POST (or GET) for a redirect to the most urgent.
                                   "next_game": {"waiting": waiting_count(address),
                                                 "url": reverse("games:me-next", args=[
                                                     request.resolver_match.kwargs["token"]
                                                     if request.resolver_match else ""])},
                                   **home_json(address),
                                   **tournaments_json(address)}))
