"""Helpers shared by the seat page and the JSON API."""

from __future__ import annotations

from typing import TypeVar

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone, translation

from ..links import find_seat
from ..models import Seat


def seat_or_404(secret: str) -> Seat:
    """The seat of a private link; wrong, rotated and malformed links are all a 404."""
    seat = find_seat(secret)
    if seat is None:
        raise Http404("No such seat")
    return seat


def use_seat_locale(request: HttpRequest, seat: Seat) -> None:
    """Show the page in the seat's own language and time zone."""
    translation.activate(seat.language)
    request.LANGUAGE_CODE = seat.language
    timezone.activate(seat.zone)


Response = TypeVar("Response", bound=HttpResponse)


def private(response: Response) -> Response:
    """A page behind a private link: never cached, never indexed."""
    response["Cache-Control"] = "no-store, private"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
