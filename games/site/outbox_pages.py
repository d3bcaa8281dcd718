"""The debug outbox: the emails the file backend wrote, one email's parts, and answering
a turn email as its player would (DEBUG only; docs/playing.md "Playing by email")."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.inbound.core import incoming
from games.inbound.services.receive import receive_bytes
from games.kit.responses import private
from games.mail.core import outbox
from games.seats.core.reply_tokens import inbound_domain


def _debug_only() -> None:
    if not settings.DEBUG:
        raise Http404("The outbox exists only in debug")


@require_GET
def outbox_list(request: HttpRequest) -> HttpResponse:
    """Debug only: the emails the file backend wrote, newest first."""
    _debug_only()
    return private(render(request, "games/outbox.html", {
        "entries": outbox.entries(), "directory": outbox.outbox_dir(),
        "backend": settings.EMAIL_BACKEND}))


@require_GET
def outbox_message(request: HttpRequest, name: str) -> HttpResponse:
    """Debug only: one email's HTML (default), text (?part=text) or raw source (?part=raw)."""
    _debug_only()
    message = outbox.find(name)
    if message is None:
        raise Http404("No such message")
    part = request.GET.get("part", "html")
    if part == "raw":
        response = HttpResponse(message.as_bytes(), content_type="text/plain; charset=utf-8")
    elif part == "text":
        response = HttpResponse(outbox.part(message, "plain"),
                                content_type="text/plain; charset=utf-8")
    else:
        response = HttpResponse(outbox.part(message, "html"),
                                content_type="text/html; charset=utf-8")
        # Show the email as a mail client would: no scripts, no remote loads.
        response["Content-Security-Policy"] = (
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
    return private(response)


@require_POST
def outbox_reply(request: HttpRequest, name: str) -> HttpResponse:
    """Debug only: answer a turn email as its player would, through the same pipeline
    as the provider's inbound webhook (docs/playing.md "Playing by email")."""
    _debug_only()
    original = outbox.find(name)
    if original is None:
        raise Http404("No such message")
    raw = incoming.reply_to(original, request.POST.get("text", "")[:4000], inbound_domain())
    # Delivered to the turn email's Reply-To, as a provider's envelope would say.
    result = receive_bytes(raw, envelope=[str(original["Reply-To"] or "")])
    messages.info(request, _("Your reply was handled: %(outcome)s. %(detail)s") % {
        "outcome": result.outcome, "detail": result.detail})
    return redirect("games:outbox")
