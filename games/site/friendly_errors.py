"""Under `run.py serve` (DEBUG=1, FRIENDLY_ERRORS=1) a dead link shows the 404 page a
player sees in production, not Django's debug page, which would show a newcomer trying
the demo a list of the site's URL patterns instead of what to do next."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games.site.error_pages import not_found

# Django's debug 404 page says why it is shown; no page of ours does.
DEBUG_PAGE_MARK = b"DEBUG = True"


class FriendlyNotFound:
    """Put the friendly 404 page in place of Django's debug one, when asked to."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (response.status_code == 404 and settings.DEBUG
                and getattr(settings, "FRIENDLY_ERRORS", False)
                and response.get("Content-Type", "").startswith("text/html")
                and not response.streaming and DEBUG_PAGE_MARK in response.content):
            friendly = not_found(request)
            # Logged once already ("Not Found: ..."), as the debug page it replaces.
            friendly._has_been_logged = True  # type: ignore[attr-defined]
            return friendly
        return response
