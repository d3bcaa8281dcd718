"""A Content-Security-Policy on every page, and pages that need nothing inline."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.support import GameWithLinks

pytestmark = pytest.mark.django_db


def policy(response: object) -> str:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    assert isinstance(header, str)
    return header


def test_every_kind_of_page_has_the_policy(client: Client, game: GameWithLinks) -> None:
    for path in ["/", "/new/", game.page(0), "/rules/base/", "/nothing/", game.api(0)]:
        header = policy(client.get(path))
        assert "script-src 'self'" in header and "frame-ancestors 'none'" in header
        assert "unsafe-inline" not in header
    assert "style-src 'self' 'unsafe-inline'" in policy(client.get("/admin/login/"))


def test_the_seat_page_has_no_inline_script_or_style(client: Client,
                                                     game: GameWithLinks) -> None:
    body = client.get(game.page(0)).content.decode()
    assert 'style="' not in body
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body)
    assert re.search(r'<svg class="maze cards-\d+"', body)
