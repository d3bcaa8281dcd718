"""The home link: a secret like a seat link (only its hash stored), rotatable."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings

from games.home.services.address import address_for_home_token
from games.people.core.home_links import HomeLink, home_link
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


@pytest.mark.parametrize("keep_seats", [False, True])
def test_a_new_home_link_renews_every_seat_link_unless_the_player_keeps_them(
        client: Any, commit: Any, *, keep_seats: bool) -> None:
    """The old home listed every seat's link: a new home link gives every seat a new link
    too (the default, one POST with no field), unless the player ticks "keep my games'
    links"; the page says which."""
    from tests.home.support import ANN, anns_games

    games = anns_games()
    old_home = f"/me/{games.token}/"
    page = client.get(old_home).content.decode()
    assert 'name="keep_seats" value="1"' in page
    assert 'name="keep_seats" value="1" checked' not in page  # renewing is the default
    assert "every seat of your games gets a new link too" in page
    old_seats = re.findall(r'href="(/play/[A-Za-z0-9_-]{43}/)"', page)
    assert len(old_seats) == 4
    with commit():
        answer = client.post(old_home + "rotate", {"keep_seats": "1"} if keep_seats else {},
                             follow=True)
    assert client.get(old_home).status_code == 404
    new_page = answer.content.decode()
    new_seats = re.findall(r'href="(/play/[A-Za-z0-9_-]{43}/)"', new_page)
    assert len(new_seats) == 4
    assert all(client.get(path).status_code == 200 for path in new_seats)
    alive = [client.get(path).status_code for path in old_seats]
    if keep_seats:
        assert alive == [200] * 4 and set(new_seats) == set(old_seats)
        assert "The old link no longer works." in new_page
    else:
        assert alive == [404] * 4 and not set(new_seats) & set(old_seats)
        assert "nor do the old links of your 4 seats" in new_page
    assert ANN in new_page

