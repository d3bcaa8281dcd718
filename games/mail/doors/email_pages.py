"""Email pages: a seat's email and vacation settings, one-click unsubscribe, the debug outbox."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.clock.services import vacations
from games.game.core.game import EmailMode
from games.handover.doors import standby_pages
from games.inbound.core import incoming
from games.inbound.services.receive import receive_bytes
from games.kit.responses import private
from games.mail.core import outbox
from games.mail.core.message import read_unsubscribe_token
from games.moves.services import seat_services as services
from games.people.core.mailbox_keys import of_mailbox
from games.seats.core.links import seat_path
from games.seats.core.reply_tokens import inbound_domain
from games.seats.core.seat import Seat
from games.seats.doors.access import with_seat
from games.setup.services import web_setup

MAX_VACATION_HOURS = 24 * 366


@require_POST
@with_seat
def seat_emails(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        services.set_email_mode([seat.pk], request.POST.get("email_mode", ""))
    except services.ServiceError as refused:
        messages.error(request, refused.message)
    else:
        if request.POST.get("email_options"):  # the form's checkboxes were sent with it
            services.set_email_options([seat.pk], **email_options(request))
        messages.success(request, _("Your email setting was saved."))
    return redirect(seat_path(secret) + "#emails")


def email_options(request: HttpRequest) -> dict[str, bool]:
    """The email form's checkboxes (an unticked box is not sent at all)."""
    return {"talk_in_emails": bool(request.POST.get("talk_in_emails")),
            "skip_seen_turns": bool(request.POST.get("skip_seen_turns"))}


@require_POST
@with_seat
def seat_vacation(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        if request.POST.get("action") == "end":
            vacations.end_vacation(seat.pk)
            messages.success(request, _("Welcome back: your vacation has ended."))
        else:
            hours = _hours(request.POST.get("hours", ""))
            vacations.take_vacation(seat.pk, timedelta(hours=hours))
            messages.success(request, _("Enjoy your vacation: your clock is stopped."))
    except services.ServiceError as refused:
        messages.error(request, refused.message)
    return redirect(seat_path(secret) + "#emails")


def _hours(raw: str) -> int:
    try:
        hours = int(raw)
    except ValueError:
        hours = 0
    if not 0 < hours <= MAX_VACATION_HOURS:
        raise services.ServiceError("bad_vacation", _("Choose how long your vacation is."))
    return hours


def _unsubscribe_seats(token: str) -> list[Seat]:
    data = read_unsubscribe_token(token)
    if data is None:
        raise Http404("No such link")
    if "s" in data:
        return list(Seat.objects.filter(pk=int(str(data["s"]))).select_related("game"))
    # A digest covers every digest seat of the address.
    return list(Seat.objects.filter(of_mailbox(str(data.get("e", ""))),
                                    email_mode=EmailMode.DAILY_DIGEST).select_related("game"))


# The token is the credential and mail providers POST without cookies (RFC 8058), so
# this one form has no CSRF token; all it can do is stop emails.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows what would stop and a button; POST (one click) stops it."""
    data = read_unsubscribe_token(token)
    if data is not None and "m" in data:  # a standby or offer email: offers of seats stop
        return standby_pages.stop_offers(request, str(data["m"]), token)
    seats = _unsubscribe_seats(token)
    done = request.method == "POST"
    if done and seats:
        services.set_email_mode([s.pk for s in seats], EmailMode.LINKS_ONLY)
        web_setup.refuse_host(seats)  # that host may not invite this address again
    response = render(request, "games/unsubscribe.html",
                      {"seats": seats, "done": done, "token": token})
    return private(response)


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
