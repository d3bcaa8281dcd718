"""One-click unsubscribe (RFC 8058) from any email: a seat's turn emails, a digest's
seats, or a standby volunteer's offers; the host who invited the address may not invite
it again."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.game.core.game import EmailMode
from games.handover.doors import standby_pages
from games.kit.responses import private
from games.mail.core.message import read_unsubscribe_token
from games.moves.services import seat_services as services
from games.people.core.mailbox_keys import of_mailbox
from games.seats.core.seat import Seat
from games.setup.services import web_setup


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
