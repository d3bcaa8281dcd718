"""/me/<token>/next: the person's most urgent game, through the home's own link. The
seat pages' and the home's button POST here; the digest links here (GET: it changes
nothing, it only redirects). `from` names the game just played (its public id), which
is skipped. Also the home's switch that turns the button off."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.home.doors.home_pages import with_home
from games.home.services import next_game, page


@require_http_methods(["GET", "HEAD", "POST"])
@with_home
def home_next(request: HttpRequest, address: str, token: str) -> HttpResponse:
    after = (request.POST if request.method == "POST" else request.GET).get("from", "")
    path = next_game.next_seat_path(address, after_game=after[:64])
    if path is None:
        messages.info(request, _("No other game is waiting for you."))
        return redirect(page.home_path(token))
    return redirect(path)


@require_POST
@with_home
def home_next_setting(request: HttpRequest, address: str, token: str) -> HttpResponse:
    offered = request.POST.get("offered") == "1"
    next_game.set_offered(address, offered=offered)
    messages.success(request, _("Saved: the “Next game” button is shown.") if offered
                     else _("Saved: the “Next game” button is hidden."))
    return redirect(page.home_path(token) + "#next-game-setting")
