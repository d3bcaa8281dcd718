"""The seat page tells the truth (issue 39, item 9), in a real browser on a 1280 px desktop
and a 390 px phone set to Rome's time: what a map showed on a goal is readable (it was
6 px on a phone); the notice of the player's own move goes once later moves come; the
time zone is a list with the browser's zone preselected, on the seat page, the home and
the setup page; a finished game shows no hand to play. (A line of table talk alone raises
no "New moves were made": tests/browser/test_live_table.py.)

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from games import engine
from games.game.core.game import Game
from games.people.core.home_links import home_link
from tests.browser.polls import follow_clock, poll_now
from tests.browser.shots import shot
from tests.browser.test_pages import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    finished_game,
    play_move,
    seat_url,
    started_game,
)
from tests.support import move_for

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]
LIVE = 15_000  # the page polls every few seconds: long enough for two polls
ROME = "Europe/Rome"


def another_seat_moves(game: Game) -> None:
    game.refresh_from_db()
    state = game.state()
    move = random.Random(1).choice(engine.legal_moves(state))
    move_for(game.pk, game.version, {**move, "seat": state.actor}, seat_number=state.actor)


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_seat_page_shows_what_is_true_now(browser: Any, live_server: Any, worker: Any,
                                              device: dict[str, Any]) -> None:
    width = device["viewport"]["width"]
    game = started_game(seed=1)  # Ann, seat 0, holds a map and plays first
    context = browser.new_context(**{**device, "bypass_csp": False}, timezone_id=ROME)
    page = context.new_page()
    follow_clock(page)
    page.goto(seat_url(live_server, game, 0))
    # The time zone: a list, the browser's zone preselected and said (the seat has UTC).
    zone = page.locator("#settings select[name=time_zone]")
    assert zone.input_value() == ROME
    assert f"Preselected from your browser: {ROME}." in page.locator("#settings").inner_text()
    # Ann plays her map on a goal, by tapping it.
    page.locator(".hand-card:has(.action-face:text-is('Map'))").first \
        .locator(".action-face").click()
    page.locator("svg.maze .cell.lit").first.click()
    play_move(page, page.locator("#turn-bar button.play"))
    notices = page.locator("#what-happened li")
    assert "with a map" in notices.first.inner_text()
    result = page.locator("svg.maze text.mapped")
    expect(result).to_have_count(1)
    size = result.bounding_box()
    assert size and size["height"] >= 11, size  # 13 units were 6 px tall on a phone
    mark = page.locator("svg.maze .mapped-mark").bounding_box()
    assert mark and mark["width"] >= 16
    shot(page.locator("svg.maze .cell:has(text.mapped)"), f"seat-truth-map-{width}.png")
    # A later move: the notice of Ann's own move is old news and goes.
    worker.settle()
    another_seat_moves(game)
    poll_now(page)
    expect(notices).to_have_count(0, timeout=LIVE)
    expect(page.locator("#log li.fresh").first).to_contain_text("Bob")
    # The home and the setup page preselect it too.
    page.goto(home_link("ann@example.org").replace("http://127.0.0.1:8000", live_server.url))
    assert page.locator("#settings select[name=time_zone]").input_value() == ROME
    page.goto(live_server.url + "/new/")
    assert page.locator("select[name=time_zone]").input_value() == ROME
    shot(page, f"seat-truth-setup-{width}.png")
    # A finished game: no hand to play, the replay tells every hand.
    over = finished_game(seed=31)
    page.goto(seat_url(live_server, over, 0))
    assert page.locator(".hand-card").count() == 0
    assert "Your hand" not in page.locator("main").inner_text()
    assert page.locator("#hand a[href$='/replay/']").is_visible()
    shot(page, f"seat-truth-over-{width}.png")
    context.close()
