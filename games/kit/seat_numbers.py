"""Seat numbers as people read them: from 1.

The engine, the rows and the JSON API's `seat` fields count seats from 0 (the API's is a
contract); every page, email and message written for a person says "seat 1" for seat 0.
Templates write `{{ row.seat|seat_no }}` (a built-in filter: settings.TEMPLATES).
"""

from __future__ import annotations

from django import template

register = template.Library()


def shown_seat(number: int) -> int:
    """The number a person reads for the seat numbered `number` from 0."""
    return number + 1


@register.filter(name="seat_no")
def shown_seat_of(value: object) -> object:
    """`shown_seat` for a value read from stored parameters or a template's row: an int
    becomes the person's number, anything else (None, "") is shown as it is."""
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    return shown_seat(value)
