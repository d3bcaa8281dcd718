"""The front page and the page where a host sets up a game."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods

from games.play import services
from games.web.forms import SetupForm
from games.web.views.common import private


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html")


@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    form = SetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            created = services.create_game(
                name=data["name"], players=data["players"], ruleset=data["ruleset"],
                options=data["options"], hours_per_move=data["hours_per_move"],
                shuffle_seats=data["seating"] == "random", start=data["start"] == "now",
                spectators_allowed=data["spectators_allowed"])
        except services.SetupError as refused:
            form.add_error(None, refused.message)
        else:
            # Shown once, straight from the POST: links are stored only as hashes.
            return private(render(request, "games/created.html", {"created": created}))
    status = 400 if request.method == "POST" else 200
    return render(request, "games/setup.html", {"form": form}, status=status)
