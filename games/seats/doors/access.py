"""The seat link's door kit: every page, form and JSON view behind a seat's link (the
seat page, its API, the clock's, talk's, handover's, rematch's and dispute's forms, the
replay) resolves its seat here, in one way per kind of answer: `with_seat` for pages and
forms (404 page, the seat's locale, a POST takes the seat), `seat_api` for JSON views
(methods, the link's rate limit, 404 and 403 as JSON; `link_api`, its first half, for
the move, which finds its seat in the move service). Refusals of the services answer
through `refusal_answer`, at the status and with the fields their classes declare."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TypeVar, overload

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games.kit import limits
from games.kit.json_body import json_error
from games.kit.limits import Limited
from games.kit.link_tokens import token_digest
from games.kit.replica_reads import game_mark, reads_from_replica
from games.kit.responses import private, too_many
from games.kit.service_errors import ServiceError, http_status
from games.seats.core.links import find_seat, seat_path
from games.seats.core.seat import Seat
from games.seats.services.acceptance import accept_seat


def seat_or_404(secret: str, *, with_game: bool = False) -> Seat:
    """The seat of a private link; wrong, rotated and malformed links are all a 404.
    `with_game`: its game read in the same query."""
    seat = find_seat(secret, with_game=with_game)
    if seat is None:
        raise Http404("No such seat")
    return seat


@contextmanager
def seat_locale(seat: Seat) -> Iterator[None]:
    """Words in the seat's own language, times in its own time zone (for this request only)."""
    with translation.override(seat.language), timezone.override(seat.zone):
        yield


SeatView = Callable[[HttpRequest, Seat, str], HttpResponse]
PageView = Callable[[HttpRequest, str], HttpResponse]


@overload
def with_seat(view: SeatView) -> PageView: ...


@overload
def with_seat(*, invitation: bool = False, taken_by_move: bool = False,
              with_game: bool = False) -> Callable[[SeatView], PageView]: ...


def with_seat(view: SeatView | None = None, *, invitation: bool = False,
              taken_by_move: bool = False,
              with_game: bool = False) -> PageView | Callable[[SeatView], PageView]:
    """Resolve the link's seat (404 when there is none) and run `view` in its locale.

    A POST through the seat's own link is the player's act: it takes the seat (and kills
    an invitation link still open) if the player had not accepted yet. A GET changes
    nothing (mail scanners open links). `invitation`: a host's invitation link may open
    the view too (the invitation page and accepting it); every other view is the
    player's own link's alone. `taken_by_move`: the view makes a move, which takes the
    seat as its first step, in the move's transaction (games.moves.services.moves), so a
    refused move takes nothing. `with_game`: the seat's game is read with it (a page
    that shows the game: one query fewer)."""
    if view is None:
        return lambda chosen: _with_seat(chosen, invitation_ok=invitation,
                                         in_move=taken_by_move, with_game=with_game)
    return _with_seat(view, invitation_ok=invitation, in_move=taken_by_move,
                      with_game=with_game)


def _with_seat(view: SeatView, *, invitation_ok: bool, in_move: bool,
               with_game: bool) -> PageView:
    @wraps(view)
    def wrapper(request: HttpRequest, secret: str) -> HttpResponse:
        seat = seat_or_404(secret, with_game=with_game)
        with seat_locale(seat):
            if seat.via_invitation and not invitation_ok:
                # A host's invitation link shows the invitation and accepts it, nothing
                # more: the hand, the moves and the seat's settings are the player's.
                messages.error(request, _("Accept the invitation first: then you have a "
                                          "link of your own."))
                return private(redirect(seat_path(secret)))
            if (request.method == "POST" and not seat.via_invitation and not in_move
                    and not seat.accepted):
                seat = accept_seat(seat.pk) or seat
            return view(request, seat, secret)

    return wrapper


R = TypeVar("R", bound=HttpResponse)


def seat_reads_replica(view: Callable[[HttpRequest, Seat, str], R]
                       ) -> Callable[[HttpRequest, Seat, str], R]:
    """A seat's view of finished data (its replay, the record), found on the primary, read
    from the replica unless its game was written within the window or the player's browser
    wrote (games.kit.replica_reads); read again from the primary if the replica fails."""
    @wraps(view)
    def wrapper(request: HttpRequest, seat: Seat, secret: str) -> R:
        return reads_from_replica(game_mark(seat.game_id)).run(view, request, seat, secret)

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


# ---- JSON views of a seat (docs/api.md) ---------------------------------------------------

SeatApiView = Callable[[HttpRequest, Seat, str], JsonResponse]
ApiView = Callable[[HttpRequest, str], JsonResponse]


def not_found() -> JsonResponse:
    return json_error(404, "not_found", _("There is no seat with this link."))


def api_methods(*allowed: str) -> Callable[[ApiView], ApiView]:
    """Like require_http_methods, but a wrong method gets the API's JSON error (405)."""
    def decorate(view: ApiView) -> ApiView:
        @wraps(view)
        def wrapper(request: HttpRequest, secret: str) -> JsonResponse:
            if request.method not in allowed:
                response = json_error(
                    405, "method_not_allowed",
                    _("Use %(methods)s here.") % {"methods": ", ".join(allowed)})
                response["Allow"] = ", ".join(allowed)
                return response
            return view(request, secret)
        return wrapper
    return decorate


def link_limited(secret: str) -> JsonResponse | None:
    """429 when this link is past its limit (count_link_request: no database, no lock)."""
    try:
        count_link_request(secret)
    except Limited as busy:
        response = json_error(429, "too_many_requests",
                              _("Too many requests for this seat; try again in %(n)s "
                                "seconds.") % {"n": busy.retry_after},
                              retry_after=busy.retry_after)
        response["Retry-After"] = str(busy.retry_after)
        return response
    return None


def invitation_refusal(seat: Seat, secret: str, *,
                       invitation_ok: bool = False) -> JsonResponse | None:
    """403 for a host's invitation link used for anything but accepting, else None."""
    if seat.via_invitation and not invitation_ok:
        # A host's invitation link is not the player's: it only opens the invitation and
        # accepts it (POST .../accept, which emails the own link to the seat's address).
        return json_error(403, "invitation_not_accepted", _(
            "This is an invitation link: accept it first; the player's own private link "
            "is then sent to the seat's email address."), accept=f"/api/play/{secret}/accept")
    return None


def link_api(*methods: str) -> Callable[[ApiView], ApiView]:
    """Every JSON view behind a seat's link, first: the methods (405 with Allow) and the
    link's limit (429 with Retry-After), before any database work. CSRF-exempt: the
    credential is the secret in the URL, which a cross-site page cannot know (read-only
    views too, so that a POST gets the JSON 405 instead of the HTML CSRF page). The move
    finds its seat itself (its lookup and its game's lock are one read); every other view
    is a `seat_api`."""
    def decorate(view: ApiView) -> ApiView:
        @csrf_exempt
        @api_methods(*methods)
        @wraps(view)
        def wrapper(request: HttpRequest, secret: str) -> JsonResponse:
            limited = link_limited(secret)
            if limited is not None:
                return limited
            return view(request, secret)
        return wrapper
    return decorate


def seat_api(*methods: str, invitation: bool = False) -> Callable[[SeatApiView], ApiView]:
    """A JSON view of a seat's link: `link_api`, then its seat (404), an invitation link
    refused (403, unless `invitation`), the view run in the seat's language."""
    def decorate(view: SeatApiView) -> ApiView:
        @link_api(*methods)
        @wraps(view)
        def wrapper(request: HttpRequest, secret: str) -> JsonResponse:
            seat = find_seat(secret)
            if seat is None:
                return not_found()
            refused = invitation_refusal(seat, secret, invitation_ok=invitation)
            if refused is not None:
                return refused
            with seat_locale(seat):
                return view(request, seat, secret)
        return wrapper
    return decorate


def refusal_answer(refused: Exception) -> JsonResponse:
    """A service's or the engine's refusal as the API's JSON error, at the status the
    refusal declares (games.kit.service_errors.http_status), with the fields it declares
    (a stale version: the game's version now)."""
    code = str(getattr(refused, "code", "refused"))
    message = str(getattr(refused, "message", refused))
    fields = refused.fields() if isinstance(refused, ServiceError) else {}
    return json_error(http_status(refused), code, message, **fields)
