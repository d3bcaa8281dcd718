"""The next game in one tap: the person's games waiting for them, the
most urgent first: their turn, nearest deadline first (no deadline last), then the games
set up that wait for them to accept their seat, oldest first.

The seat pages, the home and the digest all lead through the home's own link
(/me/<token>/next), which answers with a redirect to the first such seat: no page of one
seat ever carries another seat's link. The person can turn the offer off on the home.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from games.game.core.game import Game
from games.people.core.home_links import HomeLink, home_row
from games.seats.core.links import seat_path, token_of_seat
from games.seats.core.seat import Seat, seats_of


def waiting_seats(address: str, *, after_game: str = "") -> list[Seat]:
    """The seats waiting for the person, most urgent first; without the game whose public
    id is `after_game` (the one they just played)."""
    mine = seats_of(address).exclude(game__public_id=after_game) if after_game \
        else seats_of(address)
    turn = (mine.filter(game__status=Game.Status.ACTIVE, game__actor=F("number"))
            .order_by(F("game__deadline_at").asc(nulls_last=True), "game_id"))
    invited = (mine.filter(game__status=Game.Status.SETUP, accepted_at__isnull=True)
               .order_by("game_id"))
    return [*turn, *invited]


def waiting_count(address: str, *, after_game: str = "") -> int:
    return len(waiting_seats(address, after_game=after_game))


def next_seat_path(address: str, *, after_game: str = "") -> str | None:
    """The page of the most urgent seat waiting for the person, or None."""
    seats = waiting_seats(address, after_game=after_game)
    return seat_path(token_of_seat(seats[0])) if seats else None


def set_offered(address: str, *, offered: bool) -> None:
    """Turn the "next game" button on or off for every game of the person."""
    with transaction.atomic():
        HomeLink.objects.filter(pk=home_row(address).pk).update(next_game_offered=offered)
