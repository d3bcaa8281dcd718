"""Focus, names, targets and motion on the seat page and around it, in Chromium: on a
390 px phone no control Tab reaches hides under the turn bar (WCAG 2.4.11); each
Saboteur 2 discard box is named by its card and each Play button described by it (4.1.2,
2.4.6); the replay's summaries are at least 44 px tall (2.5.8); a reader who asks for
less motion sees no card turn (2.3.3); the language switcher names each language in
itself, English as "English" (3.1.2); the log's new lines are told by more than colour
(1.4.1).

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_door_colours import doors_in_hand_and_maze
from tests.browser.test_pages import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    finished_game,
    seat_url,
    started_game,
)

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]

# Where the focused element lies against the viewport and the turn bar, after a Tab.
# Two frames first: the page's own scrolling after a focus (play.js) is done by then.
FOCUS = """async () => {
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    const e = document.activeElement, bar = document.getElementById('turn-bar');
    const r = e.getBoundingClientRect();
    const b = bar && !bar.hidden ? bar.getBoundingClientRect() : null;
    return {what: e.outerHTML.slice(0, 80), body: e === document.body,
            inBar: !!(bar && bar.contains(e)), top: r.top, bottom: r.bottom,
            barTop: b ? b.top : null, height: innerHeight};
}"""


def test_tabbing_through_the_seat_page_on_a_phone_never_hides_focus_under_the_bar(
        browser: Any, live_server: Any) -> None:
    game = started_game(seed=6)
    context = browser.new_context(**{**PHONE, "bypass_csp": False})
    page = context.new_page()
    page.goto(seat_url(live_server, game, 0))
    under_bar, off_screen, with_bar = [], [], 0
    for _ in range(90):
        page.keyboard.press("Tab")
        spot = page.evaluate(FOCUS)
        if spot["body"]:
            break
        if spot["barTop"] is not None and not spot["inBar"]:
            with_bar += 1
            if spot["bottom"] > spot["barTop"] + 0.5:
                under_bar.append(spot["what"])
        if spot["bottom"] <= 0 or spot["top"] >= spot["height"]:
            off_screen.append(spot["what"])
    assert with_bar >= 20  # the bar showed from the first card's list on
    assert under_bar == []
    assert off_screen == []
    context.close()


def test_each_discard_box_is_named_by_its_card_and_each_play_button_described_by_it(
        browser: Any, live_server: Any) -> None:
    game = doors_in_hand_and_maze()
    page = browser.new_page(**DESKTOP)
    page.goto(seat_url(live_server, game, 0))
    boxes = page.locator("#hand").get_by_role("checkbox")
    names = [b.get_attribute("aria-label") for b in boxes.all()]
    cards = page.locator("#hand .card-name").all_inner_texts()
    assert names == [f"discard {card}" for card in cards] and len(set(names)) == 4
    for card in cards:  # the accessibility tree has each of them, by that name
        assert page.get_by_role("checkbox", name=f"discard {card}", exact=True).count() == 1
    assert "discard" in page.locator("#hand .discard-pick").first.inner_text()
    # Each card's Play button is described by its card (they are all named "Play").
    described = [page.locator(f"#{b.get_attribute('aria-describedby')}").inner_text()
                 for b in page.locator("#hand form.card-form button").all()]
    assert described == page.locator(".hand-card:has(form.card-form) .card-name"
                                     ).all_inner_texts() and len(described) == 2
    page.close()


def test_the_replays_summaries_are_44_px_tall(browser: Any, live_server: Any) -> None:
    game = finished_game(seed=31)
    for device in (DESKTOP, PHONE):
        page = browser.new_page(**device)
        page.goto(seat_url(live_server, game, 1) + "replay/?step=3")
        summaries = page.locator("summary")
        assert summaries.count() >= 3
        heights = [s.bounding_box()["height"] for s in summaries.all()]  # type: ignore[index]
        assert min(heights) >= 44, heights
        page.close()


TRANSITION = """() => [...document.querySelectorAll(
    '.hand-card svg.card-svg, .turn-bar .bar-card svg')].map(
    e => getComputedStyle(e).transitionDuration)"""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_a_card_turns_round_without_motion_when_the_reader_asks(
        browser: Any, live_server: Any, motion: str) -> None:
    game = started_game(seed=6)
    context = browser.new_context(reduced_motion=motion, **DESKTOP)
    page = context.new_page()
    page.goto(seat_url(live_server, game, 0))
    card = page.locator(".hand-card:has(svg.card-svg):has(form.card-form[data-cells]"
                        ":not([data-cells='']))").first
    card.locator(".card-name").click()
    durations = set(page.evaluate(TRANSITION))
    assert durations == ({"0s"} if motion == "reduce" else {"0.2s"})
    context.close()


ENDONYMS = ["English", "Italiano", "Nederlands", "Español", "Deutsch"]


@pytest.mark.parametrize("language", ["en", "it", "de"])
def test_the_language_switcher_names_each_language_in_itself(
        browser: Any, live_server: Any, language: str) -> None:
    context = browser.new_context(locale=language, **DESKTOP)
    page = context.new_page()
    page.goto(f"{live_server.url}/new/")
    options = page.locator("#language-switch option")
    assert options.all_inner_texts() == ENDONYMS
    assert [o.get_attribute("lang") for o in options.all()] == ["en", "it", "nl", "es", "de"]
    context.close()


def test_the_logs_new_lines_are_told_by_more_than_colour(browser: Any,
                                                         live_server: Any) -> None:
    """The lines since the reader's last move: a bar at their left besides the tint, and
    words a screen reader reads (WCAG 1.4.1, 1.3.1)."""
    game = started_game(seed=6)
    page = browser.new_page(**DESKTOP)
    page.goto(seat_url(live_server, game, 1))
    fresh = page.locator("#log li.fresh").first
    assert fresh.locator(".visually-hidden").inner_text().strip() == (
        "(new since your last move)")
    assert fresh.evaluate("e => getComputedStyle(e).boxShadow").startswith("rgb(2, 119, 189)")
    page.close()
