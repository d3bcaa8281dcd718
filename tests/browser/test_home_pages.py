"""A player's home in a real browser on a 390 px phone: the home lists *your turn* first,
a tap opens that seat and a move is played from there; the home passes the
accessibility scan and fits the screen, with JavaScript and without.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.browser.test_pages import (
    CHROMIUM,
    PHONE,
    browser,
    plain_http_cookies,
    serious_violations,
)
from tests.home.support import anns_games

__all__ = ["browser", "plain_http_cookies"]  # the fixtures this module uses

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_player_opens_the_home_on_a_phone_and_plays_from_it(
        browser: Any, live_server: Any, javascript: bool) -> None:
    games = anns_games(invite=False)
    context = browser.new_context(java_script_enabled=javascript, **PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/me/{games.token}/")
    headings = page.locator("main h2").all_inner_texts()
    assert headings[:3] == ["Your turn", "Waiting for others", "Finished"]
    first = page.locator("#your-turn li a").first
    assert first.inner_text() == "Soon"  # the soonest deadline first
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if javascript:
        assert serious_violations(page) == []
        page.goto(f"{live_server.url}/me/{games.token}/")
        first = page.locator("#your-turn li a").first
    with page.expect_navigation():
        first.click()
    assert "/play/" in page.url
    before = Game.objects.get(pk=games.soon.pk).version
    form = page.locator("form.card-form").first
    select = form.locator("select")
    select.select_option(select.locator("option").nth(1).get_attribute("value"))
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert Game.objects.get(pk=games.soon.pk).version == before + 1
    context.close()
