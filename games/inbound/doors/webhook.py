"""The inbound webhook: /anymail/<provider>/inbound/, for the providers of
`games.inbound.core.providers.SUPPORTED`.

The request never parses the email. It checks anymail's credentials (HTTP basic auth,
ANYMAIL_WEBHOOK_SECRET, first, from the header alone; then the provider's own checks,
e.g. Mailgun's signature), reads the body once, finds the reply address in the
provider's envelope, stores the message as posted (`games.inbound.services.receive.accept`) and
answers; a worker reads it. anymail's own inbound views parse the message in the
request, so a post is never handed to them (only Amazon SNS's subscription messages,
which hold no email).

What the provider hears (its retries depend on it):

    401    no or wrong basic auth (with WWW-Authenticate: Amazon SNS sends it only then)
    403    a wrong signature, or inbound email switched off (no ANYMAIL_WEBHOOK_SECRET)
    200    everything authenticated: stored, or dropped on purpose (no live reply
           address, too large to keep, no email in it, unreadable); {"outcomes": [...]}
    503    the message could not be stored (the database): the provider tries again
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from typing import Any

from anymail.exceptions import (
    AnymailError,
    AnymailNotSupportedWarning,
    AnymailWebhookValidationFailure,
)
from anymail.urls import urlpatterns as anymail_patterns
from anymail.webhooks.base import AnymailBasicAuthMixin, AnymailCoreWebhookView
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from games.inbound.core import providers
from games.inbound.services.receive import accept
from games.mail.services.tracking import webhook_secured

log = logging.getLogger("games.inbound")
View = Callable[..., HttpResponse]

INBOUND_VIEWS: dict[str, View] = {
    str(pattern.name).removesuffix("_inbound_webhook"): pattern.callback
    for pattern in anymail_patterns
    if str(getattr(pattern, "name", "")).removesuffix("_inbound_webhook")
    in providers.SUPPORTED
}
# anymail warns, each time its SendGrid view is made, that it no longer supports SendGrid:
# the webhook reads SendGrid's post itself and only borrows the view's basic-auth check
# (docs/operations.md recommends another provider).
warnings.filterwarnings("ignore", category=AnymailNotSupportedWarning,
                        message=".*dropped official support for SendGrid")


def _refused(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _answered(outcomes: list[str]) -> JsonResponse:
    return JsonResponse({"outcomes": outcomes})


# anymail's Brevo view wants the API key to fetch attachments, which the webhook never
# does (a player's move is in the text): its checks need no key.
CHECKS_ONLY: dict[str, dict[str, Any]] = {"brevo": {"api_key": ""}}


def _checks(esp: str, view: View) -> AnymailCoreWebhookView:
    """anymail's view for the provider, for its checks only (its settings read now)."""
    view_class: Any = getattr(view, "view_class", None)
    checks = view_class(**{**getattr(view, "view_initkwargs", {}), **CHECKS_ONLY.get(esp, {})})
    assert isinstance(checks, AnymailCoreWebhookView)
    return checks


def _basic_auth_ok(checks: AnymailCoreWebhookView, request: Any) -> bool:
    try:
        AnymailBasicAuthMixin.validate_request(checks, request)
    except AnymailWebhookValidationFailure:
        return False
    return True


def _body(request: HttpRequest) -> bytes | None:
    """The request's body, at most INBOUND_MAX_REQUEST_BYTES (None: larger, unread).
    Django's `request.body` refuses more than DATA_UPLOAD_MAX_MEMORY_SIZE: a larger body
    is read from the stream."""
    limit = int(settings.INBOUND_MAX_REQUEST_BYTES)
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        return None
    if 0 < declared <= int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE):
        return request.body
    body = request.read(limit + 1)
    return body if len(body) <= limit else None


@csrf_exempt
def inbound_webhook(request: HttpRequest, esp: str) -> HttpResponse:
    view = INBOUND_VIEWS.get(esp)
    if view is None:
        return _refused(404, "not_found", "No inbound webhook for this provider.")
    if request.method != "POST":
        return view(request)  # anymail answers HEAD (providers' checks) and refuses the rest
    if not webhook_secured():
        log.warning("refused a %s inbound email: set ANYMAIL_WEBHOOK_SECRET", esp)
        return _refused(403, "inbound_off", "Inbound email is off on this server.")
    try:
        checks = _checks(esp, view)
    except ImproperlyConfigured:  # Mailgun without its signing key, SES without boto3
        log.error("the %s inbound webhook is not configured", esp, exc_info=True)
        return _refused(503, "not_configured", "The webhook is not configured; try later.")
    if not _basic_auth_ok(checks, request):
        response = _refused(401, "unauthorised", "Missing or invalid basic auth.")
        response["WWW-Authenticate"] = 'Basic realm="inbound email"'
        return response
    body = _body(request)
    if body is None:
        log.info("%s inbound email: dropped unread, larger than INBOUND_MAX_REQUEST_BYTES",
                 esp)
        return _answered(["too_large"])
    return _read(request, esp, view, checks, providers.Posted(request.META, body))


def _read(request: HttpRequest, esp: str, view: View, checks: AnymailCoreWebhookView,
          posted: providers.Posted) -> HttpResponse:
    """The authenticated post's deliveries, each stored (or dropped) unread."""
    try:
        checks.run_validators(posted)
    except AnymailWebhookValidationFailure:
        return _refused(403, "forbidden", "The provider's signature does not match.")
    except (AnymailError, ValueError, KeyError, TypeError):
        log.info("%s inbound email: dropped, a post its provider's checks cannot read", esp)
        return _answered(["dropped"])
    if esp == "amazon_ses" and providers.sns_control(posted):
        return view(request)  # a subscription to confirm: anymail's view does it
    try:
        deliveries = providers.deliveries(esp, posted, int(settings.INBOUND_MAX_BYTES))
    except providers.NotInbound as why:
        log.info("%s inbound email: dropped, %s", esp, why)
        return _answered(["dropped"])
    try:
        outcomes = [accept(delivery).outcome for delivery in deliveries]
    except DatabaseError:
        log.exception("%s inbound email could not be stored", esp)
        response = _refused(503, "not_stored", "The message could not be stored; try later.")
        response["Retry-After"] = "60"
        return response
    log.info("%s inbound email: %s", esp, ", ".join(outcomes) or "none")
    return _answered(outcomes)
