"""The home link as the rest of the server uses it: which address a token opens, and the
address's absolute home link for its own emails (games.people.core.home_links holds how the
tokens are made, hashed and rotated)."""

from __future__ import annotations

from django.db import transaction

from games.moves.services.seat_services import rotate_link
from games.people.core.home_links import home_path, home_row_of_token, rotate_home_token
from games.seats.core.seat import seats_of


def address_for_home_token(token: str) -> str | None:
    """The address whose current home link carries `token`; None for an unknown, rotated
    or malformed token."""
    row = home_row_of_token(token)
    return None if row is None else row.address



def new_home_path(address: str) -> str:
    """"Give me a new home link": the old one opens nothing from now on."""
    return home_path(rotate_home_token(address))


def new_home_and_seat_links(address: str) -> tuple[str, int]:
    """A new home link and a new link for every seat the home lists (the old home
    showed them all: whoever saw it may have copied them); every old link, and the reply
    addresses of the emails that carried them, stop working at once. The new home's
    path and how many seats got a new link."""
    with transaction.atomic():
        path = new_home_path(address)
        seats = [pk for pk in seats_of(address).values_list("pk", flat=True)
                 if rotate_link(pk) is not None]
    return path, len(seats)
