"""A player's home in a real browser on a 390 px phone: the home lists *your turn* first,
a tap opens that seat and a move is played from there; the home passes the
accessibility scan and fits the screen, with JavaScript and without.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.game.core.game import Game
from games.seats.core.seat import Seat
from tests.browser.shots import shot
from tests.browser.test_pages import (
    CHROMIUM,
    PHONE,
    play_move,
    serious_violations,
)
from tests.home.support import anns_games

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_player_opens_the_home_on_a_phone_and_plays_from_it(
        browser: Any, live_server: Any, *, javascript: bool) -> None:
    games = anns_games(invite=False)
    context = browser.new_context(java_script_enabled=javascript, **PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/me/{games.token}/")
    headings = page.locator("main h2").all_inner_texts()
    assert headings[:3] == ["Your turn", "Waiting for others", "Finished"]
    first = page.locator("#your-turn li a").first
    assert first.inner_text() == "Soon"  # the soonest deadline first
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"home-{'js' if javascript else 'no-js'}.png", full_page=True)
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
    play_move(page, form.locator("button[type=submit]"))
    assert Game.objects.get(pk=games.soon.pk).version == before + 1
    context.close()


def test_the_home_says_what_emails_carry_and_turns_the_talk_off_on_a_phone(
        browser: Any, live_server: Any) -> None:
    """Issue 39, items 2 and 5: the home's email settings say that emails carry the table
    talk and that a turn seen on the open page gets no email (both on); unticking one
    turns it off in every game going on."""
    games = anns_games(invite=False)
    page = browser.new_page(**PHONE)
    page.goto(f"{live_server.url}/me/{games.token}/")
    talk = page.locator("#settings input[name=talk_in_emails]")
    seen = page.locator("#settings input[name=skip_seen_turns]")
    assert talk.is_checked() and seen.is_checked()
    options = page.locator("#settings .email-options").inner_text()
    assert "The table talk since my last email" in options
    assert "already seen on my open page" in options and "an hour later" in options
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page.locator("#settings .email-options"), "home-email-options.png")
    talk.uncheck()
    with page.expect_navigation():
        page.locator("#settings form:has(.email-options) button[type=submit]").click()
    assert "Saved for your 3 games going on." in page.content()
    assert not page.locator("#settings input[name=talk_in_emails]").is_checked()
    assert page.locator("#settings input[name=skip_seen_turns]").is_checked()
    mine = Seat.objects.filter(email="ann@example.org", game__status__in=["active"])
    assert mine.count() == 3 and not mine.filter(talk_in_emails=True).exists()
    assert not mine.filter(skip_seen_turns=False).exists()
    page.close()
