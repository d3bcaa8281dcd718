"""A player's data from their home (README "Your data"): "download my data" (GET
/me/<token>/data.json, an attachment; changes nothing), "forget me" (GET shows what will
happen, POST with CSRF does it: the home link dies with it) and whether the tables see
their record (POST). Thin over games.home.services (export, forget, record)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.home.doors.home_pages import with_home
from games.home.services import forget, page
from games.home.services.export import export_player_data
from games.ratings.services.player_record import set_record_shown


@require_GET
@with_home
def home_data(request: HttpRequest, address: str, token: str) -> HttpResponse:
    text = json.dumps(export_player_data(address), indent=2, ensure_ascii=False)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="saboteur-my-data.json"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@with_home
def home_forget(request: HttpRequest, address: str, token: str) -> HttpResponse:
    if request.method != "POST":
        return render(request, "games/me_forget.html", {
            "address": address, "token": token,
            "under_way": forget.seats_under_way(address),
            "waiting": forget.waiting_games(address)})
    done = forget.forget_player(address)
    return render(request, "games/me_forgotten.html", {"done": done})


@require_POST
@with_home
def home_record_shown(request: HttpRequest, address: str, token: str) -> HttpResponse:
    shown = request.POST.get("shown") == "1"
    set_record_shown(address, shown=shown)
    messages.success(request, _("The tables you sit at now see your record.") if shown
                     else _("The tables you sit at no longer see your record."))
    return redirect(page.home_path(token) + "#record")
