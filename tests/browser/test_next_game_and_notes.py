"""The next game in one tap and the private notes in a real browser, at 1280 px and on a
390 px phone (issue 48, items 1 and 2): the seat page's button leads to the most urgent
game, the sheet saves a mark and a line that the page then shows; both pass the
accessibility scan and fit the screen.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.seats.core.links import token_of_seat
from games.seats.core.seat import Seat
from tests.browser.test_pages import CHROMIUM, DESKTOP, PHONE, serious_violations
from tests.home.support import ANN, anns_games

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_next_game_button_and_the_sheet(browser: Any, live_server: Any,
                                            screen: dict[str, Any]) -> None:
    games = anns_games(invite=False)
    assert games.token  # her home, as her first email makes it
    waiting = token_of_seat(Seat.objects.get(game=games.waiting, email=ANN))
    soon = token_of_seat(Seat.objects.get(game=games.soon, email=ANN))
    context = browser.new_context(**screen)
    page = context.new_page()
    page.goto(f"{live_server.url}/play/{waiting}/")
    width = screen["viewport"]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert serious_violations(page) == []
    # The sheet: a mark and a line on the first other player, saved and shown.
    row = page.locator(".sheet-row").first
    row.get_by_label("Suspected").check()
    row.get_by_label("Your note").fill("took the lantern")
    with page.expect_navigation():
        row.locator("button[type=submit]").click()
    assert "Your note is saved. Only you can see it." in page.content()
    row = page.locator(".sheet-row").first
    assert row.get_by_label("Suspected").is_checked()
    assert row.get_by_label("Your note").input_value() == "took the lantern"
    # The next game, most urgent first.
    button = page.get_by_role("button", name="Next game waiting for you (2)")
    with page.expect_navigation():
        button.click()
    assert page.url == f"{live_server.url}/play/{soon}/"
    context.close()
