"""The clock tells the truth on the seat page, in a real browser on a 1280 px desktop and a
390 px phone: before half of the turn's time is gone the other players read when the
seat to act can be nudged; a pause proposal shows how many agreed of how many needed and
when it lapses, and agreeing starts it.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from games.clock.core.clock_facts import PROPOSAL_LIFETIME
from games.game.core.game import Game
from games.seatview.core.dates import local_time
from tests.browser.shots import shot
from tests.browser.test_pages import CHROMIUM, PHONE, seat_url, started_game

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("device", [PHONE], ids=["phone"])
def test_the_seat_page_says_when_to_nudge_and_counts_a_pause(
        browser: Any, live_server: Any, worker: Any, device: dict[str, Any]) -> None:
    width = device["viewport"]["width"]
    game = started_game(seed=2)  # Ann, seat 0, is to act
    game.refresh_from_db()
    assert game.turn_started_at is not None and game.deadline_at is not None
    half = game.turn_started_at + (game.deadline_at - game.turn_started_at) / 2
    context = browser.new_context(**device)
    bob = context.new_page()
    bob.goto(seat_url(live_server, game, 1))
    when = bob.locator("#status .nudge-from")
    expect(when).to_be_visible()
    assert " ".join(when.inner_text().split()) == (
        f"You can nudge Ann from {local_time(half, game.seats.get(number=1).zone)}, once "
        "more than half of their time is gone.")
    # Bob proposes a pause; Cy's page counts it.
    bob.locator("details.pause-form summary").click()
    bob.fill("#pause-reason", "Easter trip")
    with bob.expect_navigation():
        bob.locator("details.pause-form button[type=submit]").click()
    worker.settle()
    proposed = Game.objects.get(pk=game.pk).pause
    lapses = local_time(datetime.fromisoformat(proposed["proposed_at"]) + PROPOSAL_LIFETIME,
                        game.seats.get(number=2).zone)
    cy = context.new_page()
    cy.goto(seat_url(live_server, game, 2))
    count = cy.locator("#status .pause-count")
    expect(count).to_be_visible()
    assert " ".join(count.inner_text().split()) == (
        "1 of the 2 players needed have agreed so far (the proposer counts). Without the "
        f"others the proposal lapses on {lapses}.")
    assert cy.evaluate("document.documentElement.scrollWidth") <= width
    shot(cy.locator("#status"), f"clock-truth-{width}.png")
    with cy.expect_navigation():
        cy.get_by_role("button", name="Agree to the pause").click()
    expect(cy.locator("#status p.pause")).to_contain_text("The game is paused until")
    context.close()
