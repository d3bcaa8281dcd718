"""Choosing a public name asks, once and in the same form, whether to list one's ratings
(the home's form and POST /api/me/<token>/name with "listed"): a player who says yes is on
/ratings/ at once, one who does not stays off. /ratings/ says which ruleset it lists: in its
heading, and on the ruleset's link (aria-current and a visible mark, not colour alone)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from games.people.core.home_links import home_link
from games.people.core.public_names import PublicName
from tests.ratings.support import rating_row
from tests.support import token_of

pytestmark = pytest.mark.django_db

NAME_FORM = re.compile(r'<form method="post" action="/me/[^"]+/name">.*?</form>', re.S)


def home(address: str) -> str:
    return token_of(home_link(address))


def name_form(client: Client, token: str) -> str:
    found = NAME_FORM.search(client.get(f"/me/{token}/").content.decode())
    assert found is not None
    return found.group(0)


def listed_names() -> tuple[str, list[str]]:
    """The /ratings/ page's body and the names /api/ratings/ lists (base)."""
    page = Client().get("/ratings/").content.decode()
    return page, [p["name"] for p in Client().get("/api/ratings/").json()["players"]]


def api_name(client: Client, token: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/me/{token}/name", data=json.dumps(body),
                       content_type="application/json")


def test_the_name_form_asks_whether_to_list_and_a_yes_is_listed_at_once(
        client: Client, clock: Any) -> None:
    rating_row("ann@example.org", mu=30.0, sigma=4.0, rounds=40)  # 1700
    rating_row("bob@example.org", mu=28.0, sigma=4.0, rounds=40)  # 1640
    ann, bob = home("ann@example.org"), home("bob@example.org")
    form = name_form(client, ann)
    assert 'type="checkbox" name="listed"' in form
    assert "List my ratings on the ratings page" in form
    assert "If not, only you see your ratings." in form
    answer = client.post(f"/me/{ann}/name", {"name": "Ann", "listing_asked": "1",
                                             "listed": "1"}, follow=True)
    assert "Your ratings are listed under your public name." in answer.content.decode()
    client.post(f"/me/{bob}/name", {"name": "Bob", "listing_asked": "1"})  # not ticked
    page, names = listed_names()
    assert ">Ann</a></td><td>1700</td>" in page and names == ["Ann"]
    assert "Bob" not in page and "1640" not in page
    # Asked once: with a name, the form no longer asks; the separate control changes it.
    assert 'name="listed"' not in name_form(client, ann)
    own = client.get(f"/me/{ann}/").content.decode()
    assert "Stop listing my ratings" in own
    assert "List my ratings on the ratings page" in client.get(f"/me/{bob}/").content.decode()


def test_a_name_form_without_the_question_keeps_the_choice(client: Client) -> None:
    ann = home("ann@example.org")
    client.post(f"/me/{ann}/name", {"name": "Ann", "listing_asked": "1", "listed": "1"})
    client.post(f"/me/{ann}/name", {"name": "Ann"})  # a form that did not ask
    assert PublicName.objects.get().ratings_listed


def test_the_api_takes_listed_and_a_missing_one_keeps_the_choice(
        client: Client, clock: Any) -> None:
    rating_row("ann@example.org", mu=30.0, sigma=4.0, rounds=40)
    ann = home("ann@example.org")
    answer = api_name(client, ann, {"name": "Ann", "listed": True})
    assert answer.status_code == 200 and answer.json()["listed"] is True
    assert listed_names()[1] == ["Ann"]
    assert client.get(f"/api/me/{ann}/").json()["listed"] is True
    # Without "listed" (a client written before it): the choice stays.
    assert api_name(client, ann, {"name": "Ann"}).json()["listed"] is True
    assert listed_names()[1] == ["Ann"]
    # The same name with "listed": false takes the ratings off at once.
    assert api_name(client, ann, {"name": "Ann", "listed": False}).json()["listed"] is False
    assert listed_names()[1] == []
    assert client.get(f"/api/me/{ann}/").json()["listed"] is False


def test_a_new_name_without_listed_is_not_listed(client: Client, clock: Any) -> None:
    rating_row("bob@example.org", mu=30.0, sigma=4.0, rounds=40)
    answer = api_name(client, home("bob@example.org"), {"name": "Bob"})
    assert answer.status_code == 200 and answer.json()["listed"] is False
    assert listed_names()[1] == []


@pytest.mark.parametrize("wrong", ["yes", "true", 1, 0, None, [], {}])
def test_listed_of_the_wrong_type_is_refused_naming_the_field(
        client: Client, wrong: Any) -> None:
    ann = home("ann@example.org")
    answer = api_name(client, ann, {"name": "Ann", "listed": wrong})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_request" and "listed" in error["message"]
    assert not PublicName.objects.exists()
    # Nor does it change an existing name's choice.
    api_name(client, ann, {"name": "Ann", "listed": True})
    assert api_name(client, ann, {"name": "Ann", "listed": wrong}).status_code == 400
    assert PublicName.objects.get().ratings_listed


@pytest.mark.parametrize(("query", "ruleset", "heading", "other"), [
    ("", "base", "Ratings: Saboteur", "saboteur2"),
    ("?ruleset=base", "base", "Ratings: Saboteur", "saboteur2"),
    ("?ruleset=saboteur2", "saboteur2", "Ratings: Saboteur 2", "base"),
])
def test_the_ratings_page_says_which_ruleset_it_lists(
        client: Client, query: str, ruleset: str, heading: str, other: str) -> None:
    page = client.get(f"/ratings/{query}").content.decode()
    assert f"<h1>{heading}</h1>" in page
    assert f"<title>{heading}</title>" in page
    current = re.findall(r'<a href="\?ruleset=(\w+)" aria-current="page">(.*?)</a>', page)
    assert [code for code, _text in current] == [ruleset]
    assert "✓" in current[0][1]  # a visible mark, not colour alone
    assert f'<a href="?ruleset={other}">' in page
    assert client.get(f"/api/ratings/{query}").json()["ruleset"] == ruleset


def test_the_ratings_page_heading_is_translated(client: Client) -> None:
    page = client.get("/ratings/?ruleset=saboteur2",
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<h1>Wertungen: Saboteur 2</h1>" in page
