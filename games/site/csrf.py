"""CSRF protection that works with `Referrer-Policy: no-referrer`.

Pages behind a seat link send no Referer anywhere (the link is a secret). Browsers then
send `Origin: null` with the page's own form posts, and Django's CsrfViewMiddleware
refuses a null origin (and on HTTPS a missing Referer). This middleware accepts exactly
that case, a literal "null" origin with no Referer; the CSRF token check (the cookie,
SameSite=Lax, against the form's token) still runs for every POST, which is the defence
an attacker cannot pass: their page can neither read nor set our cookie and token.

Its own module: settings name the middleware by path.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.middleware.csrf import CsrfViewMiddleware


def _null_origin_without_referer(request: HttpRequest) -> bool:
    return (request.META.get("HTTP_ORIGIN") == "null"
            and not request.META.get("HTTP_REFERER"))


class NoReferrerCsrfViewMiddleware(CsrfViewMiddleware):
    # Django's own hook (not in the type stubs): is the request's Origin acceptable?
    def _origin_verified(self, request: HttpRequest) -> bool:  # type: ignore[misc,unused-ignore]
        verified: bool = super()._origin_verified(request)  # type: ignore[misc,unused-ignore]
        return verified or _null_origin_without_referer(request)
