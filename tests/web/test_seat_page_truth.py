"""The seat page tells the truth (issue 39, item 9), as the server answers it: a finished
game shows no hand to play; time zones are a list (the browser's zone preselected by
static/games/zone.js while the form holds UTC) on the seat page, the home and the setup
page, and an unknown zone is refused with its name, changing nothing. The browser's side:
tests/browser/test_seat_truth.py and test_live_table.py."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.test import Client

from games import engine
from games.people.core.home_links import home_link
from games.seats.core.seat import Seat
from tests.home.support import token_of
from tests.support import GameWithLinks, choose, make_game, move_for

pytestmark = pytest.mark.django_db


def zone_list(body: str) -> str:
    found = re.search(r'<select name="time_zone"[^>]*>', body)
    assert found is not None, "the time zone is a list to pick from"
    return found.group(0)


def test_a_finished_game_shows_no_hand_to_play(client: Client) -> None:
    game = make_game(players=5, seed=5)
    state = game.game.state()
    rng = random.Random(5)
    number = 0
    while not state.finished:
        move = choose(engine.legal_moves(state), rng)  # digs for the gold: cards are left
        move_for(game.game.pk, number, move)
        state = engine.apply(state, move)
        number += 1
    assert state.hands[0]  # the engine still holds the last round's cards
    body = client.get(game.page(0)).content.decode()
    assert "Your hand" not in body and 'class="hand-card' not in body
    assert "The game is over" in body
    assert f'href="{game.page(0)}replay/"' in body[body.index('id="hand"'):]
    live = client.get(game.page(0) + "live").content.decode()
    assert 'id="hand"' in live and 'class="hand-card' not in live


def test_time_zones_are_a_list_with_the_browser_zone_guessed_while_unchosen(
        client: Client, game: GameWithLinks) -> None:
    seat = client.get(game.page(0)).content.decode()
    assert "data-zone-guess" in zone_list(seat)  # UTC, the default nobody chose
    assert 'src="/static/games/zone.js"' in seat
    assert 'value="Europe/Rome"' in seat.split('<select name="time_zone"', 1)[1]
    setup = client.get("/new/").content.decode()
    assert "data-zone-guess" in zone_list(setup)
    Seat.objects.filter(pk=game.seats[0].pk).update(time_zone="Europe/Rome")
    chosen = client.get(game.page(0)).content.decode()
    assert "data-zone-guess" not in zone_list(chosen)  # a zone chosen is never overridden
    assert re.search(r'<option value="Europe/Rome" selected>', chosen)
    home = client.get(home_link(game.seats[1].email).replace("http://127.0.0.1:8000", ""))
    assert "data-zone-guess" in zone_list(home.content.decode())


@pytest.mark.parametrize("zone", ["Mars/Olympus", "localtime", "../../etc/passwd"])
def test_an_unknown_time_zone_is_refused_by_name_and_changes_nothing(
        client: Client, game: GameWithLinks, zone: str) -> None:
    answer = client.post(game.page(0) + "preferences", {"time_zone": zone, "language": "it"},
                         follow=True)
    text = html.unescape(answer.content.decode())
    assert f"Unknown time zone {zone}." in text
    seat = Seat.objects.get(pk=game.seats[0].pk)
    assert (seat.time_zone, seat.language) == ("UTC", "en")
    token = token_of(home_link(seat.email))
    answer = client.post(f"/me/{token}/preferences", {"time_zone": zone, "language": "it"},
                         follow=True)
    assert f"Unknown time zone {zone}." in html.unescape(answer.content.decode())
    assert Seat.objects.get(pk=seat.pk).time_zone == "UTC"
