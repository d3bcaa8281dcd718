"""The open-seats page stays cheap however many seats are listed (issue 34, item 6): 20 a
page, the same number of queries for 3 listed seats as for 40, limited per client like
the other public pages; its facts are right once rounds are over."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from games import engine
from games.game.core.game import Game
from games.handover.services import opening
from games.seatview.services.facts import round_winners
from tests.players.play import round_ends
from tests.support import GameWithLinks, choose, make_game, move_for

pytestmark = pytest.mark.django_db
SEAT = 'class="open-seat"'


def listed(count: int, first_seed: int = 100) -> list[GameWithLinks]:
    games = []
    for n in range(count):
        g = make_game(players=3, seed=first_seed + n, list_open_seats=True)
        opening.open_seat(g.seats[1].pk)
        games.append(g)
    return games


def queries_of(client: Client, path: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(path)
    assert answer.status_code == 200
    return len(captured), answer.content.decode()


def test_the_page_costs_the_same_few_queries_for_3_seats_or_40(client: Client) -> None:
    listed(3)
    few, page = queries_of(client, "/seats/")
    assert page.count(SEAT) == 3 and "Page 1 of" not in page
    listed(37, first_seed=200)
    many, page = queries_of(client, "/seats/")
    assert page.count(SEAT) == 20 and "Page 1 of 2" in page
    assert many == few, (few, many)
    assert few <= 5


def test_the_pages_hold_every_listed_seat_once(client: Client) -> None:
    listed(25)
    first = client.get("/seats/").content.decode()
    second = client.get("/seats/?page=2").content.decode()
    asks = re.findall(r'action="/seats/(\d+)/ask"', first + second)
    assert len(asks) == len(set(asks)) == 25
    assert 'href="?page=2"' in first and 'href="?page=1"' in second
    for wrong in ("0", "99", "x", "-1", "1e9"):  # out of range or not a number: a page
        assert client.get(f"/seats/?page={wrong}").status_code == 200


@override_settings(RATE_LIMITS={"seats_page": [3, 60]})
def test_the_page_is_rate_limited_per_client(client: Client) -> None:
    answers = [client.get("/seats/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert Client(REMOTE_ADDR="10.6.0.9").get("/seats/").status_code == 200


def test_a_seat_s_rounds_won_are_counted_once_rounds_are_over(client: Client) -> None:
    """Counted from the round ends every spectator saw (the page broke once a round of a
    base game was over: its winners are a side, not seats)."""
    import random

    g = make_game(players=3, seed=11, list_open_seats=True)
    rng = random.Random(3)
    while not round_ends(g.refresh()):
        move_for(g.game.pk, g.game.version, choose(engine.legal_moves(g.game.state()), rng))
    opening.open_seat(g.seats[1].pk)
    [end] = round_ends(Game.objects.get(pk=g.game.pk))
    won = 1 if 1 in round_winners(end) else 0
    page = client.get("/seats/").content.decode()
    assert f"So far this seat has won {won} of 1 round played" in page
