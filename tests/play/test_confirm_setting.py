"""The seat's "Confirm my move" setting (issue 48, item 7): saved from the seat page's
settings, refused when unknown (nothing changes), kept by a form that does not send it,
in "Download my data", and back to its default when the seat changes hands or its person
is forgotten. What the page's script does with it: tests/browser/test_confirm_move.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.game.core.game import Game
from games.home.services.export import export_player_data
from games.home.services.forget import forget_player
from games.seats.core.seat import Seat
from tests.support import make_game

pytestmark = pytest.mark.django_db


def confirm_of(seat: Seat) -> str:
    return Seat.objects.values_list("confirm_moves", flat=True).get(pk=seat.pk)


def test_the_seat_page_saves_the_setting_and_refuses_an_unknown_one(client: Client) -> None:
    made = make_game(seed=3)
    seat, page = made.seats[0], made.page(0)
    shown = client.get(page).content.decode()
    assert confirm_of(seat) == "touch"
    assert 'data-confirm-moves="touch"' in shown and 'id="id_confirm_moves"' in shown
    settings = {"time_zone": "Europe/Rome", "language": "en"}

    assert client.post(page + "preferences", {**settings, "confirm_moves": "never"}
                       ).status_code == 302
    assert confirm_of(seat) == "never"
    assert 'data-confirm-moves="never"' in client.get(page).content.decode()

    client.post(page + "preferences", {**settings, "time_zone": "UTC",
                                       "confirm_moves": "sometimes"})
    assert (confirm_of(seat), Seat.objects.get(pk=seat.pk).time_zone) == ("never",
                                                                          "Europe/Rome")
    client.post(page + "preferences", {**settings, "language": "it"})  # a page from before
    assert (confirm_of(seat), Seat.objects.get(pk=seat.pk).language) == ("never", "it")


def test_the_setting_is_exported_and_forgotten(commit: Any) -> None:
    with commit():
        made = make_game(seed=4)
    Seat.objects.filter(pk=made.seats[0].pk).update(confirm_moves="always")
    [game] = export_player_data("p0@example.com")["games"]
    assert game["seat"]["confirm_moves"] == "always"

    with commit():
        assert forget_player("p0@example.com").done
    assert confirm_of(made.seats[0]) == "touch"  # the person's choice went with them


def test_a_new_holder_of_the_seat_starts_from_the_default() -> None:
    made = make_game(seed=5)
    Seat.objects.filter(pk=made.seats[1].pk).update(confirm_moves="never")
    seat = Seat.objects.get(pk=made.seats[1].pk)
    seat.hand_to(Game.objects.get(pk=made.game.pk), name="Newcomer", email="new@x.org",
                 time_zone="UTC", language="nl")
    assert confirm_of(seat) == "touch"  # the old holder's choice went with them
