"""Tournaments through their doors: join and leave from a home (JSON and the form), the
JSON API's refusals (400, 404, 405, 409, 429, each in JSON, nothing changed), the public
pages (no address, nothing told by colour alone), the command, and a whole event of
nine homes played through the API to its standings."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client, override_settings

from games.game.core.game import Game
from games.tournaments.core.event_rows import Entry, EventTable, Tournament
from games.tournaments.services import pairing_rounds
from tests.tournaments.support import event, finish, home

pytestmark = pytest.mark.django_db
PEOPLE = [f"p{n}@example.org" for n in range(9)]


def join(client: Client, token: str, event_id: int, act: str = "join") -> Any:
    return client.post(f"/api/me/{token}/tournaments/{event_id}/{act}")


def test_join_and_leave_through_the_api(client: Client) -> None:
    cup = event(cap=2)
    first, second, third = (home(a) for a in PEOPLE[:3])
    answer = join(client, first, cup.pk)
    assert answer.status_code == 200
    assert answer.json() == {"tournament": cup.pk, "players": 1, "cap": 2, "status": "open",
                             "member": True}
    assert join(client, first, cup.pk).json()["error"]["code"] == "already_in"
    assert join(client, second, cup.pk).status_code == 200
    full = join(client, third, cup.pk)
    assert full.status_code == 409 and full.json()["error"]["code"] == "tournament_full"
    left = join(client, second, cup.pk, "leave")
    assert left.status_code == 200 and left.json()["member"] is False
    # The home's JSON lists the event.
    listed = client.get(f"/api/me/{first}/").json()["tournaments"]
    assert [item["id"] for item in listed] == [cup.pk]


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("get", "/api/me/{token}/tournaments/{id}/join", 405, "method_not_allowed"),
    ("post", "/api/me/{token}/tournaments/999999/join", 404, "no_tournament"),
    ("post", "/api/me/{token}/tournaments/abc/join", 404, None),
    ("post", "/api/me/unknownlink/tournaments/{id}/join", 404, "not_found"),
    ("post", "/api/me/{token}/tournaments/{id}/leave", 404, "not_in_tournament"),
    ("get", "/api/tournaments/999999/", 404, "no_tournament"),
    ("post", "/api/tournaments/", 405, "method_not_allowed"),
])
def test_refusals_are_json_and_change_nothing(client: Client, method: str, path: str,
                                              status: int, code: str | None) -> None:
    cup = event()
    url = path.format(token=home(PEOPLE[0]), id=cup.pk)
    answer = getattr(client, method)(url)
    assert answer.status_code == status
    assert answer["Content-Type"].startswith("application/json")
    if code:
        assert answer.json()["error"]["code"] == code
    if status == 405:
        assert "Allow" in answer
    assert not Entry.objects.exists()


def test_a_started_event_refuses_joining_and_leaving(client: Client, clock: Any) -> None:
    cup = event()
    tokens = [home(a) for a in PEOPLE[:4]]
    for token in tokens[:3]:
        assert join(client, token, cup.pk).status_code == 200
    clock.shift(timedelta(days=3))
    pairing_rounds.sweep_tournaments()
    for token, act in ((tokens[3], "join"), (tokens[0], "leave")):
        answer = join(client, token, cup.pk, act)
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "tournament_started"
    assert Entry.objects.filter(tournament=cup).count() == 3


@override_settings(RATE_LIMITS={"tables_home": (2, 3600)})
def test_too_many_requests_get_429_with_retry_after(client: Client) -> None:
    cup = event()
    token = home(PEOPLE[0])
    join(client, token, cup.pk)
    join(client, token, cup.pk, "leave")
    answer = join(client, token, cup.pk)
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    assert answer.json()["error"]["code"] == "too_many_requests"
    assert not Entry.objects.exists()


def test_the_home_form_joins_and_the_pages_show_no_address(client: Client) -> None:
    cup = event(name="Winter cup")
    token = home(PEOPLE[0])
    page = client.get(f"/me/{token}/").content.decode()
    assert 'id="tournaments"' in page and "Join Winter cup" in page
    answer = client.post(f"/me/{token}/tournaments/join", {"tournament": str(cup.pk)})
    assert answer.status_code == 302
    assert Entry.objects.filter(tournament=cup).count() == 1
    refused = client.post(f"/me/{token}/tournaments/join", {"tournament": "nope"})
    assert refused.status_code == 404
    for url in ("/tournaments/", f"/tournaments/{cup.pk}/"):
        body = client.get(url).content.decode()
        assert "Winter cup" in body and "example.org" not in body
    standings = client.get(f"/tournaments/{cup.pk}/").content.decode()
    # A table of standings a screen reader can walk: headers with their scope.
    assert '<th scope="col">' in standings and '<th scope="row">' in standings
    assert client.get("/tournaments/999999/").status_code == 404


def test_the_command_creates_an_event_and_refuses_bad_input() -> None:
    out = StringIO()
    call_command("createtournament", "--name", "Cup", "--players", "4-6", "--rounds", "2",
                 "--signup-closes", "2099-01-01T18:00Z", "--duplicate", "--seed", "5",
                 stdout=out)
    created = Tournament.objects.get()
    assert (created.min_size, created.max_size, created.rounds, created.duplicate,
            created.seed) == (4, 6, 2, True, 5)
    assert f"/tournaments/{created.pk}/" in out.getvalue()
    with pytest.raises(CommandError, match="weekday"):
        call_command("createtournament", "--name", "Cup", "--days-off", "caturday",
                     "--signup-closes", "2099-01-01T18:00Z")
    call_command("createtournament", "--name", "Slow cup", "--bank-hours", "72",
                 "--increment-hours", "24", "--days-off", "sat,sun",
                 "--signup-closes", "2099-01-01T18:00Z", stdout=out)
    slow = Tournament.objects.get(name="Slow cup")
    assert slow.clock["bank_hours"] == 72 and slow.clock["weekdays_off"] == [5, 6]
    with pytest.raises(CommandError, match="players"):
        call_command("createtournament", "--name", "Cup", "--players", "11",
                     "--signup-closes", "2099-01-01T18:00Z")
    with pytest.raises(CommandError, match="signup-closes"):
        call_command("createtournament", "--name", "Cup", "--signup-closes", "2000-01-01")


@pytest.mark.slow
def test_nine_homes_play_three_rounds_through_the_api(client: Client, clock: Any,
                                                     commit: Any) -> None:
    cup = event(players=3, rounds=3, cap=9)
    tokens = [home(a) for a in PEOPLE]
    for token in tokens:
        assert join(client, token, cup.pk).status_code == 200
    clock.shift(timedelta(days=2, minutes=1))
    for number in (1, 2, 3):
        with commit():
            pairing_rounds.sweep_tournaments()
        for token in tokens:  # each home lists exactly one game of this round going on
            games = client.get(f"/api/me/{token}/").json()["games"]
            going = [g for g in games if g["status"] == "active"]
            assert len(going) == 1
        for seed, table in enumerate(EventTable.objects.filter(
                event_round__tournament=cup, event_round__number=number)):
            assert table.game is not None
            finish(table.game, seed)
    with commit():
        pairing_rounds.sweep_tournaments()
    shown = client.get(f"/api/tournaments/{cup.pk}/").json()
    assert shown["status"] == "finished"
    assert len(shown["standings"]) == 9 and shown["standings"][0]["rank"] == 1
    assert all(row["played"] == 3 for row in shown["standings"])
    assert [r["ended"] for r in shown["rounds_played"]] == [3, 3, 3]
    assert not re.search(r"@example\.org", str(shown))
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 9
