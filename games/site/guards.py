"""Refuse requests carrying NUL or other control bytes in the path (404) or a parameter
(400), before any view or database sees them (PostgreSQL cannot store a NUL, so one in an
admin search box or a link would be a 500). JSON under /api/, and nothing changes."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse

from games.kit.responses import private
from games.site.error_pages import bad_request, not_found

# Control characters but tab, line feed and carriage return (textareas send those).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _carries_control(request: HttpRequest) -> bool:
    if CONTROL.search(unquote(request.META.get("QUERY_STRING", ""))):
        return True
    if request.path.startswith("/anymail/"):
        # A provider's post of an email: raw MIME may hold control bytes (ISO-2022-JP's
        # escapes, form feeds) and may be larger than a form; its view stores it unread.
        return False
    if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        # Read the raw body first: parsing a multipart form straight from the stream
        # would leave nothing for a view that reads the body (the JSON API: a 500).
        request.body  # noqa: B018
        return any(CONTROL.search(value) for values in request.POST.lists()
                   for value in values[1] if isinstance(value, str))
    return False


class RejectControlCharacters:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if CONTROL.search(unquote(request.META.get("PATH_INFO", ""))):
            return not_found(request)  # no page has such an address
        try:
            refused = _carries_control(request)
        except Exception:  # an unreadable body (bad multipart, too large): not ours to 500
            refused = True
        if refused:
            return bad_request(request)
        return self.get_response(request)


# Addresses that carry a seat's secret (or answer one): never cached by a browser or a
# proxy, never indexed, whatever the view returned (a redirect to /play/<secret>/ too).
SECRET_PREFIXES = ("/play/", "/api/play/", "/new/confirm/", "/mail/unsubscribe/")


class NoStoreForSecrets:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        location = response.get("Location", "")
        if request.path.startswith(SECRET_PREFIXES) or any(
                prefix in location for prefix in SECRET_PREFIXES):
            return private(response)
        return response


class ProviderWebhookErrors:
    """The email provider's webhooks (/anymail/...): a malformed or unsigned post is the
    sender's mistake, a provider this server is not set up for does not exist here, so
    neither is a 500 (nothing was changed either way)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest,
                          exception: Exception) -> HttpResponse | None:
        if not request.path.startswith("/anymail/"):
            return None
        from anymail.exceptions import AnymailConfigurationError, AnymailError

        if isinstance(exception, AnymailConfigurationError):
            return HttpResponse("This email provider is not set up here.\n", status=404,
                                content_type="text/plain")
        if isinstance(exception, AnymailError | ValueError | KeyError | TypeError):
            return HttpResponse("The provider's post could not be read.\n", status=400,
                                content_type="text/plain")
        return None
