"""Forms work with Referrer-Policy: no-referrer (browsers then post `Origin: null` and no
Referer), and the CSRF token still guards every form."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.support import GameWithLinks

pytestmark = pytest.mark.django_db


def token_of_page(client: Client, path: str) -> str:
    body = client.get(path, secure=True).content.decode()
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert match
    return match.group(1)


def test_a_form_posted_with_a_null_origin_and_no_referer_passes(game: GameWithLinks) -> None:
    client = Client(enforce_csrf_checks=True)
    token = token_of_page(client, game.page(0))
    answer = client.post(game.page(0) + "say", {"text": "hello", "csrfmiddlewaretoken": token},
                         secure=True, HTTP_ORIGIN="null")
    assert answer.status_code == 302
    assert game.game.messages.count() == 1


def test_without_the_token_a_null_origin_is_refused(game: GameWithLinks) -> None:
    client = Client(enforce_csrf_checks=True)
    token_of_page(client, game.page(0))  # the cookie, but not the form's token
    answer = client.post(game.page(0) + "say", {"text": "hello"}, secure=True,
                         HTTP_ORIGIN="null")
    assert answer.status_code == 403
    foreign = client.post(game.page(0) + "say", {"text": "hi"}, secure=True,
                          HTTP_ORIGIN="https://evil.example")
    assert foreign.status_code == 403
    assert not game.game.messages.exists()
