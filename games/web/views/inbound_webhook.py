"""The inbound webhook: /anymail/<provider>/inbound/ in front of anymail's own view.

Before anymail parses anything, the request is checked (basic auth), sized and screened
(`games.inbound.screen`, linear in its size): a request over INBOUND_MAX_REQUEST_BYTES is
refused unread (413); one that names none of our live reply addresses is dropped unread
(400: a provider may retry it, each time as cheaply); one too large for a live address is
answered to its seat without being parsed (200), one malformed too (400). Only then does
anymail's view parse it, and its inbound signal (`games.inbound.receive`) stores the
message for a task. Whatever the body holds,
the answer is a clear 2xx or 4xx, never a 500, and the web worker is free at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from anymail.exceptions import AnymailWebhookValidationFailure
from anymail.urls import urlpatterns as anymail_patterns
from anymail.webhooks.base import AnymailBasicAuthMixin
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from games.inbound.receive import refuse_unread
from games.inbound.screen import Verdict, screen

log = logging.getLogger("games.inbound")
View = Callable[..., HttpResponse]

INBOUND_VIEWS: dict[str, View] = {
    str(pattern.name).removesuffix("_inbound_webhook"): pattern.callback
    for pattern in anymail_patterns
    if str(getattr(pattern, "name", "")).endswith("_inbound_webhook")
}


def _refused(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _authorised(view: View, request: HttpRequest) -> bool:
    """anymail's basic-auth check (ANYMAIL_WEBHOOK_SECRET), before the body is read."""
    view_class: Any = getattr(view, "view_class", None)
    if view_class is None:
        return False
    instance = view_class(**getattr(view, "view_initkwargs", {}))
    try:
        AnymailBasicAuthMixin.validate_request(instance, request)
    except AnymailWebhookValidationFailure:
        return False
    return True


def _declared_length(request: HttpRequest) -> int:
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


@csrf_exempt
def inbound_webhook(request: HttpRequest, esp: str) -> HttpResponse:
    view = INBOUND_VIEWS.get(esp)
    if view is None:
        return _refused(404, "not_found", "No inbound webhook for this provider.")
    if request.method != "POST":
        return view(request)  # anymail answers HEAD (providers' checks) and refuses the rest
    if not _authorised(view, request):
        return _refused(400, "unauthorised", "Missing or invalid basic auth.")
    length = _declared_length(request)
    if length > settings.INBOUND_MAX_REQUEST_BYTES:
        return _refused(413, "too_large", "The request is larger than this server accepts.")
    oversized = length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    # Django refuses to load a body over DATA_UPLOAD_MAX_MEMORY_SIZE; read it raw then (it
    # is never parsed, only searched for a reply address).
    raw = request.read(settings.INBOUND_MAX_REQUEST_BYTES + 1) if oversized else request.body
    screening = screen(raw)
    if screening.verdict == Verdict.NO_ADDRESS:  # dropped unread
        return _refused(400, "no_reply_address", "No live reply address of this server.")
    if screening.verdict != Verdict.OK:
        result = refuse_unread(screening, raw)
        if screening.verdict == Verdict.MALFORMED:
            return _refused(400, "malformed_message", "The message's structure is refused.")
        log.info("%s inbound email: %s", esp, result.outcome)
        return HttpResponse(status=200)
    try:
        return view(request)
    except Exception:  # a body anymail cannot read: the provider hears it, never a 500
        log.warning("%s inbound email could not be read", esp, exc_info=True)
        return _refused(400, "malformed_message", "The message could not be read.")
