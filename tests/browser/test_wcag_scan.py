"""The axe-core scan (vendored in tests/browser/vendor) with the WCAG 2.0, 2.1 and 2.2
A and AA rules, every impact counted: the pages a player meets (the front page, /me/, a
person's home, setup, open tables, open seats, standby, ratings, the rules of both
rulesets, a seat page on its turn in the base game and in Saboteur 2, a replay), in
English (on a desktop and a 390 px phone) and Italian (the browser's language, on the
phone, where longer words have the least room; a home and a seat speak their person's),
find no violation. At 320 px, with WCAG's text spacing
forced or not, no page scrolls sideways and no text is cut off.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.seats.core.seat import Seat
from tests.browser.test_door_colours import doors_in_hand_and_maze
from tests.browser.test_pages import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    finished_game,
    seat_url,
    serious_violations,
)
from tests.home.support import ANN, anns_games

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]

PAGES = ["/", "/new/", "/tables/", "/rules/base/", "/rules/saboteur2/", "/me/", "/seats/",
         "/standby/", "/ratings/", "/learn/"]


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_pages_a_player_meets_pass_the_wcag_22_scan(browser: Any, live_server: Any,
                                                        language: str) -> None:
    """Those above, and a person's home, a seat page on its turn (base game and Saboteur
    2) and a finished game's replay, in the seat's language."""
    games = anns_games(invite=False)
    doors = doors_in_hand_and_maze()
    over = finished_game(seed=31)
    Seat.objects.filter(email=ANN).update(language=language)  # the home speaks hers
    Seat.objects.filter(game__in=[doors, over]).update(language=language)
    own = [f"/me/{games.token}/", seat_url(live_server, games.soon, games.soon.actor or 0),
           seat_url(live_server, doors, 0), seat_url(live_server, over, 1) + "replay/?step=3"]
    found: dict[str, list[str]] = {}
    devices = (("desktop", DESKTOP), ("phone", PHONE)) if language == "en" else (
        ("phone", PHONE),)
    for name, device in devices:
        context = browser.new_context(locale=language, **device)
        page = context.new_page()
        for path in [*PAGES, *own]:
            page.goto(path if path.startswith("http") else f"{live_server.url}{path}")
            assert page.locator("html").get_attribute("lang") == language, path
            if violations := serious_violations(page):
                found[f"{name} {path}"] = violations
        context.close()
    assert found == {}


# WCAG 1.4.12's spacing: what a reader's style sheet may set without losing content.
TEXT_SPACING = """* { line-height: 1.5 !important; letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important; }
p { margin-bottom: 2em !important; }"""

# Text cut off: an element that hides its overflow (not a box meant to scroll) whose text
# runs out of it.
CLIPPED = """() => [...document.querySelectorAll('body *')].filter(e => {
    const style = getComputedStyle(e);
    if (!['hidden', 'clip'].includes(style.overflowX) && !['hidden', 'clip'].includes(
        style.overflowY)) return false;
    if (e.classList.contains('visually-hidden') || !e.textContent.trim()) return false;
    return e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
}).map(e => e.outerHTML.slice(0, 80))"""


@pytest.mark.parametrize("spacing", [False, True], ids=["plain", "text-spacing"])
def test_the_pages_reflow_at_320_px_and_keep_their_text_with_wide_spacing(
        browser: Any, live_server: Any, spacing: bool) -> None:
    """At 320 px (WCAG 1.4.10) no page scrolls sideways, the seat page included (its maze
    scrolls in its own box); with WCAG 1.4.12's text spacing no text is cut off."""
    games = anns_games(invite=False)
    seat = seat_url(live_server, games.soon, games.soon.actor or 0)
    context = browser.new_context(viewport={"width": 320, "height": 640}, is_mobile=True,
                                  has_touch=True, bypass_csp=True)  # the spacing's style
    page = context.new_page()
    wide, clipped = {}, {}
    for url in [*(live_server.url + p for p in PAGES),
                f"{live_server.url}/me/{games.token}/", seat]:
        page.goto(url)
        if spacing:
            page.add_style_tag(content=TEXT_SPACING)
        if (width := page.evaluate("document.documentElement.scrollWidth")) > 320:
            wide[url] = width
        if found := page.evaluate(CLIPPED):
            clipped[url] = found
    assert wide == {}
    assert clipped == {}
    context.close()
