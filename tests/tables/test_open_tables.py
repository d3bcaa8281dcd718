"""Open tables: finding one from a home (JSON and the home's form), starting when full or
at the wait's end with bots, expiring otherwise, and every bad request refused with a
clear 4xx that changes nothing."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client, override_settings

from games.game.core.game import Game, SeatKind
from games.people.core.home_links import home_link
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.tables.core.table_rows import OpenTable, TableMember
from games.tables.services.starting import sweep_tables
from tests.support import token_of

pytestmark = pytest.mark.django_db
WISH = {"ruleset": "base", "players": 3, "hours_per_move": 24, "language": "en",
        "rated": True, "bots_fill": False}
SEAT_LINK = re.compile(r"/play/[A-Za-z0-9_-]{43}/")


def home(address: str) -> str:
    return token_of(home_link(address))


def find(client: Client, token: str, wish: Any) -> Any:
    return client.post(f"/api/me/{token}/tables", data=json.dumps(wish),
                       content_type="application/json")


def test_three_homes_find_one_table_and_each_gets_only_their_own_link(
        client: Client, commit: Any) -> None:
    people = [f"p{n}@example.org" for n in range(3)]
    tokens = [home(address) for address in people]
    mail.outbox.clear()
    with commit():
        answers = [find(client, token, WISH) for token in tokens]
    assert [a.status_code for a in answers] == [200, 200, 200]
    found = [a.json() for a in answers]
    assert len({a["table"] for a in found}) == 1
    assert [(a["joined"], a["seats"], a["status"]) for a in found] == [
        (1, 3, "forming"), (2, 3, "forming"), (3, 3, "started")]
    assert "game" not in found[0] and found[2]["game"]
    game = Game.objects.get(public_id=found[2]["game"])
    assert game.status == Game.Status.ACTIVE and game.rated
    links = {seat.email: link_for(seat) for seat in game.seats.all()}
    for address, token in zip(people, tokens, strict=True):
        letters = [m for m in mail.outbox if m.to == [address]]
        assert letters, address
        shown = {link for m in letters for link in SEAT_LINK.findall(str(m.body))}
        own = SEAT_LINK.search(links[address])
        assert own is not None and shown == {own.group(0)}  # theirs, and nobody else's
        # The game is on the home.
        games = client.get(f"/api/me/{token}/").json()["games"]
        assert [g["game"] for g in games] == [game.public_id]
    assert OpenTable.objects.get().status == OpenTable.Status.STARTED


def test_a_range_of_players_joins_a_table_of_any_size_within_it(client: Client) -> None:
    first = find(client, home("a@example.org"), {**WISH, "players": 4}).json()
    second = find(client, home("b@example.org"), {**WISH, "players": "3-5"}).json()
    third = find(client, home("c@example.org"),
                 {**WISH, "players": {"min": 2 + 2, "max": 6}}).json()
    assert first["table"] == second["table"] == third["table"]
    assert third["joined"] == 3 and third["seats"] == 4
    # A range starts a table of its smallest size when nothing matches.
    other = find(client, home("d@example.org"), {**WISH, "players": "5-6"}).json()
    assert other["table"] != first["table"] and other["seats"] == 5


@pytest.mark.parametrize(("wish", "code"), [
    ({**WISH, "ruleset": "chess"}, "unknown_ruleset"),
    ({**WISH, "players": 2}, "bad_players"),
    ({**WISH, "players": 11}, "bad_players"),
    ({**WISH, "players": "5-3"}, "bad_players"),
    ({**WISH, "ruleset": "saboteur2", "players": 13}, "bad_players"),
    ({**WISH, "players": "many"}, "bad_request"),
    ({**WISH, "players": True}, "bad_request"),
    ({**WISH, "hours_per_move": 0}, "bad_request"),
    ({**WISH, "language": "xx"}, "bad_request"),
    ({**WISH, "rated": "yes"}, "bad_request"),
])
def test_bad_wishes_are_refused_with_400_and_change_nothing(client: Client, wish: Any,
                                                           code: str) -> None:
    answer = find(client, home("a@example.org"), wish)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == code and answer.json()["error"]["message"]
    assert not OpenTable.objects.exists() and not TableMember.objects.exists()


@pytest.mark.parametrize("field", [*WISH, "table"])
@pytest.mark.parametrize("value", [["en"], {"en": True}, None, [3, 4]])
def test_every_field_of_a_wrong_type_is_a_400_naming_it(client: Client, field: str,
                                                       value: Any) -> None:
    answer = find(client, home("a@example.org"), {**WISH, field: value})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_request" and error["field"] == field
    assert f'"{field}"' in error["message"] or field in error["message"]
    assert not OpenTable.objects.exists() and not TableMember.objects.exists()


def test_a_wrong_type_is_refused_before_the_table_is_looked_up(client: Client) -> None:
    table = find(client, home("a@example.org"), WISH).json()["table"]
    answer = find(client, home("b@example.org"), {"table": table, "rated": "yes"})
    assert answer.status_code == 400 and answer.json()["error"]["field"] == "rated"
    assert TableMember.objects.count() == 1


@pytest.mark.parametrize("body", ["", "  \n", "[]", '"base"', "4", "null"])
def test_an_empty_body_or_no_object_asks_for_a_json_object(client: Client, body: str) -> None:
    answer = client.post(f"/api/me/{home('a@example.org')}/tables", data=body,
                         content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"] == {"code": "bad_request", "message": "Send a JSON object."}
    assert not OpenTable.objects.exists() and not TableMember.objects.exists()
    # An empty object is a wish with every default.
    assert find(client, home("a@example.org"), {}).status_code == 200


def test_a_started_table_and_a_third_forming_table_are_refused_with_409(
        client: Client) -> None:
    started = None
    for n in range(3):
        started = find(client, home(f"p{n}@example.org"), WISH).json()
    assert started is not None and started["status"] == "started"
    late = home("late@example.org")
    answer = find(client, late, {"table": started["table"]})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "table_started"
    assert find(client, late, {**WISH, "players": 4}).status_code == 200
    assert find(client, late, {**WISH, "players": 5}).status_code == 200
    before = (OpenTable.objects.count(), TableMember.objects.count())
    third = find(client, late, {**WISH, "players": 6})
    assert third.status_code == 409 and third.json()["error"]["code"] == "too_many_tables"
    assert (OpenTable.objects.count(), TableMember.objects.count()) == before
    unknown = find(client, late, {"table": 9999})
    assert unknown.status_code == 404


def test_joining_a_listed_table_and_leaving_it(client: Client) -> None:
    table = find(client, home("a@example.org"), {**WISH, "players": 4}).json()["table"]
    bob = home("bob@example.org")
    joined = find(client, bob, {"table": table}).json()
    assert joined["joined"] == 2
    again = find(client, bob, {"table": table})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_at_table"
    left = client.post(f"/api/me/{bob}/tables/{table}/leave")
    assert left.status_code == 200 and left.json()["joined"] == 1
    assert client.post(f"/api/me/{bob}/tables/{table}/leave").status_code == 404
    assert client.get(f"/api/me/{bob}/tables/{table}/leave").status_code == 405


def test_the_list_of_tables_names_no_address(client: Client) -> None:
    find(client, home("secret.ann@example.org"), {**WISH, "players": 4, "bots_fill": True})
    tables = client.get("/api/tables/").json()["tables"]
    assert len(tables) == 1
    assert set(tables[0]) == {"id", "ruleset", "seats", "joined", "hours_per_move", "clock",
                              "language", "rated", "bots_fill", "anonymous", "starts",
                              "players"}
    assert tables[0]["joined"] == 1 and tables[0]["bots_fill"] is True
    assert tables[0]["players"] == [{"name": "", "rating": None}]  # counted, not named
    page = client.get("/tables/").content.decode()
    assert "secret.ann" not in page and "1 of 4 players" in page
    assert client.post("/api/tables/").status_code == 405


def test_a_table_with_bots_allowed_starts_at_the_end_of_its_wait(
        client: Client, commit: Any) -> None:
    with time_machine.travel("2027-03-01 10:00Z", tick=False) as traveller:
        token = home("ann@example.org")
        table = find(client, token, {**WISH, "players": 4, "bots_fill": True}).json()
        find(client, home("bob@example.org"), {**WISH, "players": 4})  # no bots: another table
        mail.outbox.clear()
        traveller.shift(timedelta(hours=47))
        assert sweep_tables() == {"started": 0, "expired": 0}
        traveller.shift(timedelta(hours=2))
        with commit():
            done = sweep_tables()
    assert done == {"started": 1, "expired": 1}
    opened = OpenTable.objects.get(pk=table["table"])
    assert opened.status == OpenTable.Status.STARTED and opened.game is not None
    seats = list(opened.game.seats.order_by("number"))
    assert [s.kind for s in seats].count(SeatKind.BOT) == 3
    assert opened.game.status == Game.Status.ACTIVE
    assert {tuple(m.to) for m in mail.outbox if "/play/" in str(m.body)} == {
        ("ann@example.org",)}
    # Bob's table had no bots allowed: it expired and he was told.
    [told] = [m for m in mail.outbox if m.to == ["bob@example.org"]]
    assert "did not fill up" in str(told.subject)
    assert client.get(f"/api/me/{token}/").json()["games"][0]["game"] == opened.game.public_id


def test_the_home_finds_a_table_and_shows_a_refusal_with_its_status(client: Client) -> None:
    token = home("ann@example.org")
    page = client.get(f"/me/{token}/").content.decode()
    assert "Find me a table" in page
    answer = client.post(f"/me/{token}/tables/find", {
        "ruleset": "base", "players": "3-4", "hours_per_move": "48", "language": "en",
        "rated": "on"})
    assert answer.status_code == 302
    table = OpenTable.objects.get()
    assert (table.seats, table.hours_per_move, table.rated, table.bots_fill) == (3, 48, True,
                                                                               False)
    refused = client.post(f"/me/{token}/tables/find", {
        "ruleset": "base", "players": "12", "hours_per_move": "48", "language": "en"})
    assert refused.status_code == 400
    assert "This ruleset is played by 3 to 10 players" in refused.content.decode()
    assert OpenTable.objects.count() == 1
    assert client.post(f"/me/{token}/tables/leave", {"table": table.pk}).status_code == 302
    assert OpenTable.objects.get().status == OpenTable.Status.CLOSED


@override_settings(RATE_LIMITS={"tables_home": [2, 3600]})
def test_finding_tables_is_limited_per_home_link(client: Client) -> None:
    token = home("ann@example.org")
    codes = [find(client, token, {**WISH, "players": n}).status_code for n in (4, 5, 6)]
    assert codes == [200, 200, 429]


def test_a_member_without_a_public_name_is_player_n_and_one_with_is_named(
        client: Client) -> None:
    tokens = [home(f"p{n}@example.org") for n in range(3)]
    client.post(f"/me/{tokens[1]}/name", {"name": "Dora"})
    game_id = None
    for token in tokens:
        game_id = find(client, token, WISH).json().get("game")
    names = set(Seat.objects.filter(game__public_id=game_id).values_list("player_name",
                                                                         flat=True))
    assert "Dora" in names and names - {"Dora"} <= {"Player 1", "Player 3"}
    # The seats are the members' own, by address.
    assert set(Seat.objects.filter(game__public_id=game_id).values_list("email", flat=True)) == {
        f"p{n}@example.org" for n in range(3)}
