"""People count seats from 1: the seat page, the player's home, the emails, the game log
and the API's sentences say "seat 1" for the first seat, while the JSON API's `seat`
fields stay 0-based (a contract programs rely on)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import engine
from games.game.core.game import Game, WhileOpen
from games.handover.services import opening, takeover
from games.seatview.core import describe
from tests.handover_support import open_row
from tests.support import make_game, new_home_url

pytestmark = pytest.mark.django_db


def test_the_seat_page_and_the_home_say_seat_1_for_the_first_seat(client: Client) -> None:
    g = make_game(players=3, seed=5)
    page = client.get(g.page(0)).content.decode()
    assert "You are Player0, seat 1." in page and "seat 0" not in page
    home = client.get(new_home_url("p2@example.com")).content.decode()
    assert "as Player2, seat 3" in home and "seat 2<" not in home


def test_the_invitation_names_the_seat_from_1(commit: Any) -> None:
    mail.outbox.clear()
    with commit():
        make_game(players=3, seed=5, start=False, invite=True)
    (invitation,) = [m for m in mail.outbox if m.to == ["p0@example.com"]]
    assert "You take seat 1." in invitation.body and "seat 0" not in invitation.body


def test_the_api_says_seat_2_in_words_and_keeps_seat_1_in_its_json(client: Client) -> None:
    g = make_game(players=3, seed=5)
    assert client.get(g.api(1)).json()["seat"] == 1
    state = g.game.state()
    answer = client.post(g.api(1) + "moves",
                         json.dumps({"version": 0, "move": engine.legal_moves(state)[0]}),
                         content_type="application/json")
    assert answer.status_code == 422
    assert answer.json()["error"]["message"] == "It is not your turn: seat 1 is to act."


def test_a_takeover_is_told_with_the_seat_numbered_from_1(client: Client,
                                                          commit: Any) -> None:
    g = make_game(players=3, seed=5)
    Game.objects.filter(pk=g.game.pk).update(while_seat_open=WhileOpen.WAIT)
    with commit():
        opening.open_seat(g.seats[2].pk)
        takeover.take_over(open_row(g.seats[2].pk).pk, takeover.Newcomer(
            name="Vera", email="vera@example.org", language="en"))
    page = client.get(g.page(0)).content.decode()
    assert "Vera took over seat 3 from Player2" in page
    assert "Player2 asked for someone to take over seat 3" in page


def test_a_seat_with_no_name_is_called_by_its_number_from_1() -> None:
    assert describe.seat_name(0, {}) == "seat 1"
    assert describe.seat_name(None, {}) == "nobody"
