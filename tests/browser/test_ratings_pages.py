"""A player chooses a public name on their home in a real browser, on a desktop and on a
phone, and the same form asks whether to list their ratings: ticked, they are on /ratings/
at once. /ratings/ says which ruleset it lists (heading, aria-current and a mark that is
not colour alone) and switches to the other; its names lead to the players' public pages,
whose rating history is an image with a name and the same numbers as a table; the pages
pass the accessibility scan and fit the screen.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.people.core.home_links import home_token
from tests.browser.shots import shot
from tests.browser.test_pages import CHROMIUM, ON_PHONE, serious_violations
from tests.ratings.support import rated_round, rating_row
from tests.support import make_game

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


def current_ruleset(page: Any) -> tuple[str, str]:
    """The /ratings/ ruleset link marked current: its text and how it looks."""
    current = page.locator('nav.rulesets a[aria-current="page"]')
    assert current.count() == 1
    looks = current.evaluate("a => { const s = getComputedStyle(a); "
                             "return s.fontWeight + ' ' + s.borderBottomWidth; }")
    return current.inner_text(), looks


@ON_PHONE
def test_a_name_chosen_with_listing_ticked_is_on_the_ratings_page_of_its_ruleset(
        browser: Any, live_server: Any, device: dict[str, Any]) -> None:
    width = device["viewport"]["width"]
    rating_row("ann@example.org", mu=30.0, sigma=4.0, rounds=40)  # 1700
    rated = make_game(players=3, seed=1, rated=True)
    for number, (before, after) in enumerate(((1640, 1668), (1668, 1652), (1652, 1700)), 1):
        rated_round(rated.game, number, {"ann@example.org": (0, before, after)})
    context = browser.new_context(**device)
    page = context.new_page()
    page.goto(f"{live_server.url}/me/{home_token('ann@example.org')}/")
    section = page.locator("#public-name")
    question = section.get_by_label("List my ratings on the ratings page")
    assert not question.is_checked()  # unlisted unless the player says so
    assert "only you see your ratings" in section.locator("#listing-hint").inner_text()
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(section.locator("form").first, f"name-form-{width}.png")
    section.get_by_label("Public name").fill("Ann")
    question.check()
    with page.expect_navigation():
        section.locator("form").first.locator("button[type=submit]").click()
    notices = page.locator("#what-happened").inner_text()
    assert "Your public name is Ann." in notices
    assert "Your ratings are listed under your public name." in notices
    # Asked once: the name form no longer asks; the separate control changes the choice.
    assert page.locator("#public-name input[name=listed][type=checkbox]").count() == 0
    assert page.get_by_role("button", name="Stop listing my ratings").is_visible()

    page.goto(f"{live_server.url}/ratings/")
    assert page.locator("h1").inner_text() == "Ratings: Saboteur"
    text, looks = current_ruleset(page)
    assert text == "✓ Saboteur" and looks == "700 3px"
    other = page.locator("nav.rulesets a:not([aria-current])")
    assert other.inner_text() == "Saboteur 2"
    assert other.evaluate("a => getComputedStyle(a).borderBottomWidth") == "0px"
    assert page.locator("table.ratings tbody tr").inner_text().split("\t")[:3] == [
        "1", "Ann", "1700"]
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"ratings-{width}.png", full_page=True)
    # Her name leads to her public page: the history drawn, and the same as a table.
    with page.expect_navigation():
        page.locator("table.ratings").get_by_role("link", name="Ann").click()
    assert page.locator("h1").inner_text() == "Ann"
    plot = page.get_by_role("img", name="Saboteur rating after each rated round")
    assert plot.is_visible() and plot.bounding_box()["width"] <= width
    page.locator("details.rating-numbers summary").click()
    assert page.locator("table.rating-steps tbody tr").last.inner_text().split("\t") == [
        "40", page.locator("table.rating-steps tbody tr td").nth(-3).inner_text(), "+48",
        "1700"]
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"player-{width}.png", full_page=True)
    page.go_back()
    with page.expect_navigation():
        other.click()
    assert page.locator("h1").inner_text() == "Ratings: Saboteur 2"
    assert current_ruleset(page)[0] == "✓ Saboteur 2"
    assert "Nobody is listed yet." in page.locator("main").inner_text()
    assert serious_violations(page) == []
    context.close()
