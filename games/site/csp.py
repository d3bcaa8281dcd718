"""The Content-Security-Policy (django-csp, settings CONTENT_SECURITY_POLICY): scripts and
styles from our own files only, nothing inline, no frames, no plugins, forms posting only
to us. The Django admin's own templates carry a few inline style attributes: for /admin/
only, inline styles are allowed (never inline scripts).

Its own module: settings name its middleware by path.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class AdminInlineStyles:
    """Must sit after csp.middleware.CSPMiddleware in MIDDLEWARE (it marks the response
    before the CSP middleware writes the header)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(("/admin/", "/outbox/")):  # the dev outbox shows emails
            response._csp_update = {"style-src": ["'unsafe-inline'"]}  # type: ignore[attr-defined]
        return response
