"""The axe-core scan (vendored in tests/browser/vendor) with the WCAG 2.0, 2.1 and 2.2
A and AA rules, every impact counted: the pages a player meets before and beside the seat
page (the front page, /me/, a person's home, setup, open tables, the rules of both
rulesets), in English and Italian (the browser's language; a home speaks its person's),
on a desktop and a 390 px phone, find no violation. The seat page and the replay are
scanned with the same rules in their own tests (test_pages.py).

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.seats.core.seat import Seat
from tests.browser.test_pages import CHROMIUM, DESKTOP, PHONE, serious_violations
from tests.home.support import ANN, anns_games

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]

PAGES = ["/", "/new/", "/tables/", "/rules/base/", "/rules/saboteur2/", "/me/"]


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_pages_around_the_game_pass_the_wcag_22_scan(browser: Any, live_server: Any,
                                                          language: str) -> None:
    home = f"/me/{anns_games(invite=False).token}/"
    Seat.objects.filter(email=ANN).update(language=language)  # the home speaks hers
    found: dict[str, list[str]] = {}
    for name, device in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(locale=language, **device)
        page = context.new_page()
        for path in [*PAGES, home]:
            page.goto(f"{live_server.url}{path}")
            assert page.locator("html").get_attribute("lang") == language
            if violations := serious_violations(page):
                found[f"{name} {path}"] = violations
        context.close()
    assert found == {}
