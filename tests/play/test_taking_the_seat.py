"""Issue 37, item 1: a player's first move takes their seat as one step of the move, for
every transport (the JSON API, the seat page, an email reply), in the move's own
transaction, before the move; a refused move takes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.seats.core.links import find_seat, link_for
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.inbound_support import reply_address, send_reply
from tests.support import make_game, token_of

pytestmark = pytest.mark.django_db


def unaccepted_game() -> tuple[Seat, str, str]:
    """A started game nobody has accepted yet: seat 0, its own link's token and the
    host's invitation token still open."""
    players = [game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("ann", "bo", "cy")]
    made = game_setup.create_game(name="First use", players=players, seed=4, start=True)
    seat, invitation = made.seats[0]
    return seat, token_of(link_for(seat)), token_of(invitation)


def taken(seat: Seat) -> bool:
    return Seat.objects.get(pk=seat.pk).accepted_at is not None


def test_the_first_api_move_takes_the_seat_in_the_moves_one_transaction(
        client: Client) -> None:
    seat, own, invitation = unaccepted_game()
    state = client.get(f"/api/play/{own}/").json()
    with CaptureQueriesContext(connection) as captured:
        made = client.post(f"/api/play/{own}/moves",
                           {"version": state["version"], "move": state["legal_moves"][0]},
                           content_type="application/json")
    assert made.status_code == 200 and taken(seat)
    assert find_seat(invitation) is None  # the invitation died with it
    # One transaction (a savepoint inside the test's), where there were two.
    assert sum(q["sql"].startswith("SAVEPOINT") for q in captured.captured_queries) == 1


@pytest.mark.parametrize(("version", "change", "status"), [
    (7, {}, 409),                                      # a stale version
    (0, {"type": "fly"}, 400),                         # no such move
    (0, {"x": 40, "y": 40}, 422),                      # a card far from the maze
])
def test_a_refused_api_move_takes_nothing(client: Client, version: int,
                                         change: dict[str, Any], status: int) -> None:
    seat, own, invitation = unaccepted_game()
    legal = client.get(f"/api/play/{own}/").json()["legal_moves"]
    place = next(m for m in legal if m["type"] == "place")
    answer = client.post(f"/api/play/{own}/moves", {"version": version,
                                                    "move": {**place, **change}},
                         content_type="application/json")
    assert answer.status_code == status, answer.json()
    assert answer.json()["error"]["code"]  # the refusal's own code, in its format
    assert not taken(seat) and find_seat(invitation) is not None


def test_a_refused_move_on_the_page_takes_nothing_and_a_made_one_takes_the_seat(
        client: Client) -> None:
    seat, own, invitation = unaccepted_game()
    refused = client.post(f"/play/{own}/move", {"version": 0, "move": '{"type": "fly"}'})
    assert refused.status_code == 400
    assert not taken(seat) and find_seat(invitation) is not None
    state = client.get(f"/api/play/{own}/").json()
    made = client.post(f"/play/{own}/move", {"version": state["version"],
                                             "move": json.dumps(state["legal_moves"][0])})
    assert made.status_code == 302 and taken(seat) and find_seat(invitation) is None


def test_a_move_by_email_reply_takes_the_seat(commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    Seat.objects.filter(pk=g.seats[0].pk).update(accepted_at=None)
    answer = send_reply(commit, reply_address("p0@example.com"), "pass 1")
    assert answer.outcome == "moved" and taken(g.seats[0])
