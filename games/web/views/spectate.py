"""The spectator page: off unless the game allows it; built from view(state, None)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games.models import Game
from games.present import pages


@require_GET
def watch(request: HttpRequest, public_id: str) -> HttpResponse:
    game = get_object_or_404(Game, public_id=public_id, spectators_allowed=True)
    view = pages.seat_view(game, None)
    context = pages.page_context(game, None, view, [])
    context["replay_url"] = f"/watch/{public_id}/replay/"
    return render(request, "games/watch.html", context)
