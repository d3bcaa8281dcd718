""""Forget me" in a real browser on a 390 px phone: the page that says what will happen
passes the accessibility scan and fits the screen; its button forgets the address.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.game.core.game import SeatKind
from games.people.core.home_links import home_token
from games.seats.core.seat import Seat
from tests.browser.test_pages import (
    CHROMIUM,
    PHONE,
    serious_violations,
)
from tests.support import make_game

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


def test_forget_me_on_a_phone(browser: Any, live_server: Any) -> None:
    g = make_game(players=3, seed=5)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/me/{home_token('p0@example.com')}/forget")
    assert page.locator("h1").inner_text() == "Forget me"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert serious_violations(page) == []
    with page.expect_navigation():
        page.locator("button.danger").click()
    assert page.locator("h1").inner_text() == "You are forgotten"
    assert serious_violations(page) == []
    assert Seat.objects.get(pk=g.seats[0].pk).kind == SeatKind.BOT
    context.close()
