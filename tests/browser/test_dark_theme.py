"""The dark theme (games.home.services.theme): the pages a player meets pass axe-core's
contrast rules (AA) on a device set to dark, on a desktop and a phone; the home's
switch turns a light device's pages dark (the server writes it on <html>: no flash) and
keeps the choice (its export and erase: tests/home/test_theme.py).

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.people.core.home_links import theme_of
from tests.browser.test_pages import AXE, CHROMIUM, DESKTOP, PHONE, seat_url
from tests.home.support import ANN, anns_games

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]

PAPER = "getComputedStyle(document.body).backgroundColor"


def contrast_violations(page: Any) -> list[str]:
    """axe-core's colour rules alone (text contrast, links told apart in a text block): what
    a theme changes; the rest of the scan is the same in both (tests/browser/test_wcag_scan
    .py) and would only cost time."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => await axe.run(document, {runOnly: {type: 'rule', "
                           "values: ['color-contrast', 'link-in-text-block']}, "
                           "resultTypes: ['violations']})")
    return [f"{v['id']}: " + "; ".join(n["target"][0] + " " + n.get("failureSummary", "")[:160]
                                       for n in v["nodes"][:6]) for v in result["violations"]]


def test_the_pages_pass_the_scan_in_dark(browser: Any, live_server: Any) -> None:
    """The front page, a home, a seat page on its turn and the rules, device dark."""
    games = anns_games(invite=False)
    paths = [f"{live_server.url}/", f"{live_server.url}/me/{games.token}/",
             seat_url(live_server, games.soon, games.soon.actor or 0),
             f"{live_server.url}/rules/saboteur2/"]
    found: dict[str, list[str]] = {}
    for name, device in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(color_scheme="dark", **device)
        page = context.new_page()
        for url in paths:
            page.goto(url)
            assert page.evaluate(PAPER) == "rgb(27, 25, 22)", url  # dark indeed
            if violations := contrast_violations(page):
                found[f"{name} {url}"] = violations
        context.close()
    assert found == {}


def test_the_homes_switch_makes_the_pages_dark_and_is_kept(browser: Any,
                                                            live_server: Any) -> None:
    games = anns_games(invite=False)
    home = f"{live_server.url}/me/{games.token}/"
    seat = seat_url(live_server, games.soon, games.soon.actor or 0)
    context = browser.new_context(color_scheme="light", **PHONE)
    page = context.new_page()
    page.goto(home)
    assert page.evaluate(PAPER) == "rgb(250, 247, 242)"
    page.locator("#theme input[value=dark]").check()
    page.locator("#theme button").click()
    assert page.locator("html").get_attribute("data-theme") == "dark"
    assert page.evaluate(PAPER) == "rgb(27, 25, 22)"
    assert theme_of(ANN) == "dark"
    page.goto(seat)  # the person's seat pages too, from the server's first byte
    assert page.locator("html").get_attribute("data-theme") == "dark"
    context.close()
