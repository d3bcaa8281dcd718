"""Ratings where others see them (/tables/, the homes' lists of tables, /ratings/ and their
JSON twins): only the ratings their players chose to list, and a provisional one always
said to be provisional: a newcomer's, and a returning player's after long months away."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games.people.core.home_links import home_link
from tests.ratings.support import rating_row
from tests.support import START, token_of

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def home(address: str) -> str:
    return token_of(home_link(address))


def named(client: Client, address: str, name: str, *, listed: bool) -> str:
    """The address's home token, with a public name, ratings listed or not, waiting at
    the forming rated table of four."""
    token = home(address)
    assert client.post(f"/me/{token}/name", {"name": name}).status_code == 302
    if listed:
        client.post(f"/me/{token}/ratings", {"listed": "1"})
    answer = client.post(f"/api/me/{token}/tables", content_type="application/json",
                         data=json.dumps({"players": 4, "rated": True}))
    assert answer.status_code == 200
    return token


def test_a_provisional_rating_says_so_wherever_it_is_shown(client: Client, clock: Any) -> None:
    rating_row("ann@example.org", mu=30.0, sigma=4.0, rounds=40)
    rating_row("bob@example.org", mu=27.0, sigma=7.8, rounds=3)  # new
    # Settled once, but back after two years without a rated round.
    rating_row("cy@example.org", mu=28.0, sigma=4.0, rounds=40,
               last_round_at=START - timedelta(days=730))
    for address, name in (("ann@example.org", "Ann"), ("bob@example.org", "Bob"),
                          ("cy@example.org", "Cy")):
        token = named(client, address, name, listed=True)
    page = client.get("/tables/").content.decode()
    assert ('<a href="/players/Ann/">Ann</a> (1700), <a href="/players/Bob/">Bob</a> (1580, '
            'provisional), <a href="/players/Cy/">Cy</a> (1620, provisional)') in page
    [table] = client.get("/api/tables/").json()["tables"]
    assert table["players"] == [
        {"name": "Ann", "rating": {"rating": 1700, "rounds": 40, "provisional": False}},
        {"name": "Bob", "rating": {"rating": 1580, "rounds": 3, "provisional": True}},
        {"name": "Cy", "rating": {"rating": 1620, "rounds": 40, "provisional": True}}]
    # /ratings/: settled first, then the provisional ones, each highest first.
    page = client.get("/ratings/?ruleset=base").content.decode()
    assert page.index(">Ann</a></td><td>1700</td>") < page.index(
        ">Cy</a></td><td>1620, provisional</td>") < page.index(
        ">Bob</a></td><td>1580, provisional</td>")
    assert [(p["name"], p["provisional"]) for p in
            client.get("/api/ratings/?ruleset=base").json()["players"]] == [
        ("Ann", False), ("Cy", True), ("Bob", True)]
    assert "rating 1620 after 40 rated rounds (provisional)" in client.get(
        f"/me/{token}/").content.decode()
    assert client.get(f"/api/me/{token}/").json()["ratings"]["base"]["provisional"] is True


def test_a_rating_its_player_does_not_list_is_shown_nowhere_public(
        client: Client, clock: Any) -> None:
    rating_row("ann@example.org", mu=30.3, sigma=4.0, rounds=40)  # 1712
    ann = named(client, "ann@example.org", "Ann", listed=False)
    bob = named(client, "bob@example.org", "Bob", listed=False)  # at Ann's table
    public = ["/tables/", "/api/tables/", "/ratings/?ruleset=base", "/api/ratings/?ruleset=base",
              f"/me/{bob}/", f"/api/me/{bob}/"]
    for path in public:
        body = client.get(path).content.decode()
        assert "1712" not in body, path
    assert "Ann" in client.get("/tables/").content.decode()  # her name, not her number
    # Her own home shows it to her, and says who else sees it.
    own = client.get(f"/me/{ann}/").content.decode()
    assert "rating 1712 after 40 rated rounds" in own
    assert ("Others see your ratings (on the ratings page, on your public page and beside "
            "your name at open tables) only while you list them.") in own
    # Listed, it is shown beside her name; listed no more, it is gone again.
    client.post(f"/me/{ann}/ratings", {"listed": "1"})
    assert "Ann</a> (1712)" in client.get("/tables/").content.decode()
    client.post(f"/me/{ann}/ratings", {"listed": "0"})
    for path in public:
        assert "1712" not in client.get(path).content.decode(), path
