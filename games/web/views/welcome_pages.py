"""/me/new/<token>/: the link that confirms an address asking for a home while it plays
nowhere yet (games.home.welcome). GET shows a button (mail scanners open links: GET
changes nothing), POST with CSRF confirms and opens the new, empty home."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.home import welcome
from games.web.views.seat_access import private


@require_http_methods(["GET", "HEAD", "POST"])
def new_home(request: HttpRequest, token: str) -> HttpResponse:
    row = welcome.pending_home(token)
    if row is None:
        raise Http404("No such home to confirm")
    if request.method != "POST":
        return private(render(request, "games/me_new.html", {"token": token}))
    path = welcome.confirm_home(row)
    messages.success(request, _("Your home is ready. Bookmark this page: its link is yours "
                                "alone. From here you can find a table with other players."))
    return private(redirect(path))
