"""Answers every door gives the same way: a page behind a private link is never cached
nor indexed, and a rate limit's refusal is a 429 page with Retry-After."""

from __future__ import annotations

from typing import TypeVar

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.kit.limits import Limited

Response = TypeVar("Response", bound=HttpResponse)


def private(response: Response) -> Response:
    """A page behind a private link: never cached, never indexed."""
    response["Cache-Control"] = "no-store, private"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def too_many(request: HttpRequest, busy: Limited) -> HttpResponse:
    """429 with Retry-After: a rate limit (games.kit.limits) stopped this request."""
    response = render(request, "games/too_many.html", {"retry_after": busy.retry_after},
                      status=429)
    response["Retry-After"] = str(busy.retry_after)
    return private(response)
