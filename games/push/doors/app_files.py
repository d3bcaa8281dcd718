"""The site as an installable app: /sw.js (the service worker, served from the root so
that its scope is the whole site) and /me/<token>/manifest.webmanifest (the home's web
app manifest: its start URL is that home, so the app opens on the person's games).

The service worker (static/games/sw.js) caches nothing: it has no fetch handler, so every
page comes from the server as it would without it; it only shows alerts and posts their
receipts."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.kit.responses import private
from games.people.core.home_links import home_path, home_row_of_token

THEME = "#3b2a1a"


@cache
def _worker_source() -> bytes:
    found = finders.find("games/sw.js")
    if not found:
        raise Http404("no service worker")
    return Path(str(found)).read_bytes()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    source = _worker_source() if not settings.DEBUG else _worker_source.__wrapped__()
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on each visit; never a stale one from a cache.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest, token: str) -> HttpResponse:
    row = home_row_of_token(token)
    if row is None:
        raise Http404("No such home")
    with translation.override(row.language or settings.LANGUAGE_CODE):
        start = home_path(token)
        answer = JsonResponse({
            "name": _("Saboteur by post"), "short_name": _("Saboteur"),
            "description": _("Your games of Saboteur, one move a day."),
            "lang": translation.get_language(), "start_url": start, "scope": "/",
            "id": start, "display": "standalone", "background_color": "#f6f1e7",
            "theme_color": THEME,
            "icons": [{"src": static(f"games/icons/icon-{size}.png"), "sizes": f"{size}x{size}",
                       "type": "image/png", "purpose": "any"} for size in (192, 512)]
            + [{"src": static("games/icons/maskable-512.png"), "sizes": "512x512",
                "type": "image/png", "purpose": "maskable"}],
        }, content_type="application/manifest+json")
    return private(answer)
