"""A player's home: /me/ (ask for the home link by email), /me/<token>/ (every game of the
address) and its settings forms; the JSON twin is in games.web.views.api_home."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from games.home.links import address_for_home_token


def address_or_404(token: str) -> str:
    address = address_for_home_token(token)
    if address is None:
        raise Http404("No such home")
    return address


@require_GET
def home_page(request: HttpRequest, token: str) -> HttpResponse:
    address_or_404(token)
    return HttpResponse("")
