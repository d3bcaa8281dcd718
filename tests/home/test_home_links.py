"""The home link: a secret like a seat link (only its hash stored), rotatable."""

from __future__ import annotations

import pytest
from django.conf import settings

from games.home.links import address_for_home_token, home_url, new_home_url
from games.models import HomeLink

pytestmark = pytest.mark.django_db


def token_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


def test_a_home_link_opens_its_address_and_only_its_hash_is_stored() -> None:
    url = home_url("Ann@Example.org")
    assert url.startswith(settings.SITE_URL + "/me/")
    token = token_of(url)
    assert address_for_home_token(token) == "ann@example.org"
    assert home_url("ann@example.org ") == url  # the same link every time
    row = HomeLink.objects.get()
    assert token not in str(list(HomeLink.objects.values_list()))
    assert row.token_hash != token


def test_a_new_home_link_kills_the_old_one_at_once() -> None:
    old = token_of(home_url("ann@example.org"))
    new = token_of(new_home_url("ann@example.org"))
    assert new != old
    assert address_for_home_token(old) is None
    assert address_for_home_token(new) == "ann@example.org"
    assert home_url("ann@example.org").endswith(f"/{new}/")


def test_unknown_and_malformed_tokens_open_nothing() -> None:
    home_url("ann@example.org")
    assert address_for_home_token("x" * 43) is None
    assert address_for_home_token("../etc") is None


def test_a_changed_link_key_renews_the_link_emails_carry(settings: object) -> None:
    old = token_of(home_url("ann@example.org"))
    settings.LINK_KEY = "another key entirely, long enough to be one"  # type: ignore[attr-defined]
    new = token_of(home_url("ann@example.org"))
    assert new != old
    assert address_for_home_token(new) == "ann@example.org"
