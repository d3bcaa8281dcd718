"""An anonymous game in a real browser, on a desktop and on a phone: the seat page names
every seat by its alias (the reader's own included) and no real name appears anywhere
on it, in its text or in its markup; it passes the accessibility scan and fits the
screen. What every response and email says is tests/anonymous/test_anonymous_game.py's.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.game.core.aliases import anonymity
from games.setup.services import game_setup
from tests.browser.test_pages import CHROMIUM, DESKTOP, PHONE, seat_url, serious_violations

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]
REAL_NAMES = ("Annabella", "Bartholomew", "Cordelia")


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_seat_page_of_an_anonymous_game_names_only_aliases(
        browser: Any, live_server: Any, device: dict[str, Any]) -> None:
    players = [game_setup.PlayerSpec(name=name, email=f"{name.lower()}@example.org")
               for name in REAL_NAMES]
    game = game_setup.create_game(name="Anonymous game", players=players, seed=5,
                                  start=True, anonymous=True).game
    names = anonymity(game)
    aliases = [names.alias(number) for number in range(3)]
    page = browser.new_page(**device)
    page.goto(seat_url(live_server, game, 1))
    html, text = page.content(), page.locator("body").inner_text()
    assert [real for real in REAL_NAMES if real in html] == []
    assert all(alias in text for alias in aliases), aliases
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"]
    page.close()
