"""A finished seat page's rematch button ("again, same table") (games.setup.services.rematch): POST
(CSRF), then back to the page, which links to the rematch. The rematch's own link goes to each
player by email only, the proposer's too."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.kit.service_errors import SetupError
from games.seats.core.links import seat_path
from games.seats.core.seat import Seat
from games.seats.doors.access import with_seat
from games.setup.services import rematch

ANCHOR = "#rematch"


@require_POST
@with_seat
def seat_rematch(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    # No rate limit of its own: one rematch per finished game, and its invitations
    # count against the setup caps.
    try:
        made = rematch.propose_rematch(seat.pk)
    except SetupError as refused:
        messages.error(request, refused.message)
    else:
        if made.new:
            messages.success(request, _("The rematch is proposed: the other players are "
                                        "invited by email. Your own link to it is in your "
                                        "email."))
        else:
            messages.info(request, _("This table already plays again: the invitations are "
                                     "in your email."))
    return redirect(seat_path(secret) + ANCHOR)
