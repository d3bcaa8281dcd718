"""A player's public page, /players/<name>/, and its JSON twin GET /api/players/<name>
(docs/api.md "Players"): found by the public name (with other capitals it redirects to the
name as written; the API answers under the name as written). GET only; nothing here is
secret, no address and no seat link. An unknown name is the 404 page, or
`404 no_player` in the API's error format.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error
from games.kit.replica_reads import reads_from_replica
from games.people.core.public_names import PublicName
from games.players.core.rating_plot import rating_plot
from games.players.services.player_page import (
    PlayerPage,
    RulesetRating,
    named,
    page_url,
    player_page,
)


@require_GET
@reads_from_replica()
def player(request: HttpRequest, name: str) -> HttpResponse:
    owner = named(name)
    if owner is None:
        return render(request, "404.html", {"no_player": name}, status=404)
    if owner.name != name:
        return redirect(page_url(owner.name), permanent=True)
    return render(request, "games/player.html", page_context(owner))


def page_context(owner: PublicName) -> dict[str, Any]:
    """What the page's template shows of the player."""
    page = player_page(owner)
    return {"page": page, "ratings": _drawn(page)}


def _drawn(page: PlayerPage) -> list[tuple[RulesetRating, SafeString]]:
    """Each listed rating with its history drawn (games.players.core.rating_plot; empty
    without a history)."""
    titles = {"base": _("Saboteur rating after each rated round"),
              "saboteur2": _("Saboteur 2 rating after each rated round")}
    return [(item, rating_plot(
        [item.start, *(step.rating for step in item.history)] if item.history else [],
        item.first_round, title=titles.get(item.ruleset, item.ruleset),
        rounds_label=_("rated rounds"), plot_id=f"plot-{item.ruleset}"))
        for item in page.ratings or ()]


@csrf_exempt
@reads_from_replica()
def api_player(request: HttpRequest, name: str) -> JsonResponse:
    if request.method not in ("GET", "HEAD"):
        response = json_error(405, "method_not_allowed", _("Use %(methods)s here.")
                              % {"methods": "GET, HEAD"})
        response["Allow"] = "GET, HEAD"
        return response
    owner = named(name)
    if owner is None:
        return json_error(404, "no_player", _("No player has this public name."))
    return JsonAnswer(player_page(owner).as_json())
