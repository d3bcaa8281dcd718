"""The home says what to do next (issue 39, item 4): a game that waits for this address
to accept its seat is "Waiting for you" (with the button that accepts it), above
"Waiting for others", and the JSON twin says `waiting_for_you` (`your_turn` stays false);
the vacation form shows each game's days left and offers only lengths some game can
give."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games.game.core.game import Game
from games.seats.core.seat import Seat
from games.seats.services import acceptance
from games.setup.services import game_setup
from tests.home.support import ANN, anns_games

pytestmark = pytest.mark.django_db


def invited(name: str, *, accepted_by_ann: bool = False) -> Game:
    """A game set up (not started) with Ann in seat 1, her seat not accepted yet."""
    players = [game_setup.PlayerSpec(name=f"{name} Host", email=f"{name.lower()}@example.net"),
               game_setup.PlayerSpec(name="Ann", email=ANN),
               game_setup.PlayerSpec(name=f"{name} Cy", email=f"cy.{name.lower()}@example.net")]
    game = game_setup.create_game(name=name, players=players, seed=3, invite=False).game
    if accepted_by_ann:
        acceptance.accept_seat(Seat.objects.get(game=game, number=1).pk)
    return game


def test_a_game_waiting_for_your_acceptance_is_waiting_for_you_with_the_button(
        client: Client) -> None:
    games = anns_games()
    invited("Invitation")
    invited("Accepted", accepted_by_ann=True)
    body = client.get(f"/me/{games.token}/").content.decode()
    headings = re.findall(r"<h2[^>]*>([^<]+)</h2>", body)
    assert headings[:4] == ["Your turn", "Waiting for you", "Waiting for others", "Finished"]
    for_you = body[body.index('id="waiting-for-you"'):body.index('id="waiting"')]
    assert ">Invitation</a>" in for_you and "Accepted" not in for_you
    assert "Accept and take my seat" in for_you
    others = body[body.index('id="waiting"'):body.index('id="finished"')]
    assert ">Accepted</a>" in others and "waiting for players to accept" in others
    assert "Invitation" not in others
    # The button takes the seat, as the seat page's does.
    action = re.search(r'<form method="post" action="([^"]+/accept)"', for_you)
    assert action is not None
    assert client.post(action.group(1)).status_code == 302
    seat = Seat.objects.get(game__name="Invitation", number=1)
    assert seat.accepted_at is not None
    after = client.get(f"/me/{games.token}/").content.decode()
    assert "Waiting for you" not in after  # no invitation left: no such group


def test_the_json_home_says_waiting_for_you_and_not_your_turn(client: Client) -> None:
    games = anns_games()
    invited("Invitation")
    invited("Accepted", accepted_by_ann=True)
    rows: list[dict[str, Any]] = client.get(f"/api/me/{games.token}/").json()["games"]
    assert [row["name"] for row in rows] == ["Soon", "Later", "Invitation", "Waiting",
                                             "Accepted", "Over"]
    by_name = {row["name"]: row for row in rows}
    assert by_name["Invitation"]["status"] == "waiting_for_you"
    assert by_name["Invitation"]["your_turn"] is False
    assert by_name["Accepted"]["status"] == "setup"
    assert by_name["Soon"]["status"] == "active" and by_name["Soon"]["your_turn"] is True
    assert set(by_name["Invitation"]) == set(by_name["Soon"])  # the same keys


def test_the_home_shows_each_game_s_vacation_left_and_offers_only_what_fits(
        client: Client) -> None:
    games = anns_games()  # every game starts with 7 days of vacation
    Seat.objects.filter(email=ANN, game=games.later).update(vacation_left=timedelta(days=2))
    body = client.get(f"/me/{games.token}/").content.decode()
    later = body[body.index(">Later</a>"):]
    assert "2 days of vacation left" in later[:later.index("</li>")]
    soon = body[body.index(">Soon</a>"):]
    assert "7 days of vacation left" in soon[:soon.index("</li>")]
    form = body[body.index('id="home-vacation"'):]
    offered = dict(re.findall(r'<option value="(\d+)">([^<]+)</option>',
                              form[:form.index("</select>")]))
    assert max(int(hours) for hours in offered) == 7 * 24  # no 14 days: no game has them
    assert offered["48"] == "2 days"  # every game can give it
    assert offered["168"] == "7 days (in 2 games of 3)"
    # Every length offered is taken by at least one game, never refused everywhere.
    answer = client.post(f"/me/{games.token}/vacation", {"action": "take", "hours": "168"},
                         follow=True)
    page = answer.content.decode()
    assert "Enjoy your vacation" in page
    assert "Later: That is more vacation than you have left." in page
    assert Seat.objects.filter(email=ANN, vacation_until__isnull=False).count() == 2
    away = client.get(f"/me/{games.token}/").content.decode()
    assert "on vacation until" in away and "I am back" in away
