"""Helpers shared by the seat page and the JSON API."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TypeVar

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.game.core.game import Seat
from games.kit import limits
from games.kit.limits import Limited
from games.seats.core.links import find_seat, seat_path, token_digest
from games.setup.services.game_setup import accept_seat, has_accepted


def seat_or_404(secret: str) -> Seat:
    """The seat of a private link; wrong, rotated and malformed links are all a 404."""
    seat = find_seat(secret)
    if seat is None:
        raise Http404("No such seat")
    return seat


@contextmanager
def seat_locale(seat: Seat) -> Iterator[None]:
    """Words in the seat's own language, times in its own time zone (for this request only)."""
    with translation.override(seat.language), timezone.override(seat.zone):
        yield


SeatView = Callable[[HttpRequest, Seat, str], HttpResponse]


def opens_with_invitation(view: SeatView) -> SeatView:
    """Mark a seat view that a host's invitation link may open too (the invitation page
    and accepting it); every other seat view is the player's own link's alone."""
    view.opens_with_invitation = True  # type: ignore[attr-defined]
    return view


def takes_seat_in_move(view: SeatView) -> SeatView:
    """Mark the move's view: its seat is taken as the move's first step, in the move's
    transaction (games.moves.services.moves), so a refused move takes nothing."""
    view.takes_seat_in_move = True  # type: ignore[attr-defined]
    return view


def with_seat(view: SeatView) -> Callable[[HttpRequest, str], HttpResponse]:
    """Resolve the link's seat (404 when there is none) and run `view` in its locale.

    A POST through the seat's own link is the player's act: it takes the seat (and kills
    an invitation link still open) if the player had not accepted yet. A GET changes
    nothing (mail scanners open links). A move takes the seat itself (takes_seat_in_move)."""
    invitation_ok = getattr(view, "opens_with_invitation", False)
    in_move = getattr(view, "takes_seat_in_move", False)

    @wraps(view)
    def wrapper(request: HttpRequest, secret: str) -> HttpResponse:
        seat = seat_or_404(secret)
        with seat_locale(seat):
            if seat.via_invitation and not invitation_ok:
                # A host's invitation link shows the invitation and accepts it, nothing
                # more: the hand, the moves and the seat's settings are the player's.
                messages.error(request, _("Accept the invitation first: then you have a "
                                          "link of your own."))
                return private(redirect(seat_path(secret)))
            if (request.method == "POST" and not seat.via_invitation and not in_move
                    and not has_accepted(seat)):
                seat = accept_seat(seat.pk) or seat
            return view(request, seat, secret)

    return wrapper


# The per-link limit (docs/api.md "Limits"): the JSON API and the seat page's live parts
# count in this one bucket, so a page's polls and fetches together, or a flood of either,
# stay within one link's budget.
LINK_LIMIT = "api_seat"


def count_link_request(secret: str) -> None:
    """Count a request through a seat's link; Limited past the link's limit. Counted per
    link hash before any database work; a malformed link is not counted (it is a 404
    whatever happens)."""
    digest = token_digest(secret)
    if digest is not None:
        limits.hit(LINK_LIMIT, f"link:{digest}")


def within_link_limit(view: Callable[[HttpRequest, str], HttpResponse]
                      ) -> Callable[[HttpRequest, str], HttpResponse]:
    """A 429 page with Retry-After for a link past its limit, before the seat is looked up."""
    @wraps(view)
    def wrapper(request: HttpRequest, secret: str) -> HttpResponse:
        try:
            count_link_request(secret)
        except Limited as busy:
            return too_many(request, busy)
        return view(request, secret)

    return wrapper


Response = TypeVar("Response", bound=HttpResponse)


def private(response: Response) -> Response:
    """A page behind a private link: never cached, never indexed."""
    response["Cache-Control"] = "no-store, private"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def too_many(request: HttpRequest, busy: Limited) -> HttpResponse:
    """429 with Retry-After: a rate limit (games.kit.limits) stopped this request."""
    response = render(request, "games/too_many.html", {"retry_after": busy.retry_after},
                      status=429)
    response["Retry-After"] = str(busy.retry_after)
    return private(response)
