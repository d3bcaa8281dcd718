"""The home link: a secret like a seat link (only its hash stored), rotatable."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings

from games.home.address import address_for_home_token
from games.models import HomeLink
from games.models.home_links import home_link
from tests.support import new_home_url

pytestmark = pytest.mark.django_db


def token_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


def test_a_home_link_opens_its_address_and_only_its_hash_is_stored() -> None:
    url = home_link("Ann@Example.org")
    assert url.startswith(settings.SITE_URL + "/me/")
    token = token_of(url)
    assert address_for_home_token(token) == "ann@example.org"
    assert home_link("ann@example.org ") == url  # the same link every time
    row = HomeLink.objects.get()
    assert token not in str(list(HomeLink.objects.values_list()))
    assert row.token_hash != token


def test_a_new_home_link_kills_the_old_one_at_once() -> None:
    old = token_of(home_link("ann@example.org"))
    new = token_of(new_home_url("ann@example.org"))
    assert new != old
    assert address_for_home_token(old) is None
    assert address_for_home_token(new) == "ann@example.org"
    assert home_link("ann@example.org").endswith(f"/{new}/")


def test_unknown_and_malformed_tokens_open_nothing() -> None:
    home_link("ann@example.org")
    assert address_for_home_token("x" * 43) is None
    assert address_for_home_token("../etc") is None


def test_a_changed_link_key_renews_the_link_emails_carry(settings: object) -> None:
    old = token_of(home_link("ann@example.org"))
    settings.LINK_KEY = "another key entirely, long enough to be one"  # type: ignore[attr-defined]
    new = token_of(home_link("ann@example.org"))
    assert new != old
    assert address_for_home_token(new) == "ann@example.org"


def test_home_links_are_redacted_from_log_lines() -> None:
    from saboteur_site.log_redaction import redact

    token = token_of(home_link("ann@example.org"))
    for line in (f'"GET /me/{token}/ HTTP/1.1" 200', f"GET /api/me/{token}/",
                 f"POST /me/{token}/rotate", f"referer=https://x.org/me/{token}/"):
        assert token not in redact(line)


@pytest.mark.parametrize("seats_too", [True, False])
def test_rotating_the_home_offers_new_seat_links_in_the_same_post(
        client: Any, commit: Any, *, seats_too: bool) -> None:
    """Issue 34, item 8: the old home listed every seat's link; "also give every seat a
    new link" (one POST, same form) kills them all, and the page says why."""
    from tests.home.support import ANN, anns_games

    games = anns_games()
    old_home = f"/me/{games.token}/"
    page = client.get(old_home).content.decode()
    assert 'name="seats" value="1"' in page and "copy those links" in page
    old_seats = re.findall(r'href="(/play/[A-Za-z0-9_-]{43}/)"', page)
    assert len(old_seats) == 4
    with commit():
        answer = client.post(old_home + "rotate", {"seats": "1"} if seats_too else {},
                             follow=True)
    assert client.get(old_home).status_code == 404
    new_page = answer.content.decode()
    new_seats = re.findall(r'href="(/play/[A-Za-z0-9_-]{43}/)"', new_page)
    assert all(client.get(path).status_code == 200 for path in new_seats)
    alive = [client.get(path).status_code for path in old_seats]
    if seats_too:
        assert alive == [404] * 4 and not set(new_seats) & set(old_seats)
        assert "nor do the old links of your 4 seats" in new_page
    else:
        assert alive == [200] * 4 and set(new_seats) == set(old_seats)
    assert ANN in new_page
