"""The home's "My record" and "Your data": the record on the page, the download (GET, an
attachment, changes nothing), "forget me" (GET explains, POST with CSRF does it and the
home link dies), showing the record to the tables; an unknown link is a 404."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from games.game.core.game import SeatKind
from games.people.core.home_links import home_token
from games.seats.core.seat import Seat
from tests.players.play import play_moves
from tests.players.scan import tables_holding
from tests.support import make_game

pytestmark = pytest.mark.django_db
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def home(address: str = "p0@example.com") -> str:
    return f"/me/{home_token(address)}/"


def test_the_home_shows_my_record_and_downloads_my_data(client: Client) -> None:
    play_moves(make_game(players=3, seed=5), 5)
    make_game(players=3, seed=6)
    path = home()
    page = client.get(path).content.decode()
    assert "My record" in page and "2 games played" in page and "1 finished" in page
    assert "Download my data" in page and "Forget me" in page
    answer = client.get(path + "data.json")
    assert answer.status_code == 200
    assert answer["Content-Disposition"].startswith("attachment;")
    assert answer["Cache-Control"] == "no-store, private"
    data = json.loads(answer.content)
    assert data["address"] == "p0@example.com" and len(data["games"]) == 2
    assert client.post(path + "data.json").status_code == 405


def test_an_unknown_home_link_shows_nothing(client: Client) -> None:
    wrong = "/me/" + "A" * 43 + "/"
    for suffix in ("data.json", "forget"):
        assert client.get(wrong + suffix).status_code == 404
    assert Client(enforce_csrf_checks=False).post(wrong + "forget").status_code == 404


def test_forget_me_explains_first_and_needs_the_form(commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=5)
    browser = Client(enforce_csrf_checks=True)
    path = home()
    page = browser.get(path + "forget").content.decode()
    assert "a bot plays it until someone takes it over" in page
    assert Seat.objects.get(pk=g.seats[0].pk).email == "p0@example.com"  # GET changed nothing
    assert browser.post(path + "forget").status_code == 403  # no CSRF token
    assert Seat.objects.get(pk=g.seats[0].pk).email == "p0@example.com"
    token = CSRF.search(page)
    assert token is not None
    with commit():
        done = browser.post(path + "forget", {"csrfmiddlewaretoken": token.group(1)})
    assert done.status_code == 200 and "You are forgotten" in done.content.decode()
    assert Seat.objects.get(pk=g.seats[0].pk).kind == SeatKind.BOT
    assert tables_holding("p0@example.com") == []
    assert browser.get(path).status_code == 404  # the home link died


def test_the_tables_see_my_record_once_i_show_it(client: Client) -> None:
    g = make_game(players=3, seed=5)
    path = home()
    assert "Show my record to my tables" in client.get(path).content.decode()
    assert "1 game ·" not in client.get(g.page(1)).content.decode()
    assert client.post(path + "record", {"shown": "1"}).status_code == 302
    assert "Hide my record" in client.get(path).content.decode()
    assert "1 game · 0 rounds won · 0 deadlines missed" in client.get(
        g.page(1)).content.decode()
    client.post(path + "record", {"shown": "0"})
    assert "1 game ·" not in client.get(g.page(1)).content.decode()
