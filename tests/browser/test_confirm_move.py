"""A guard against mis-taps (issue 48, item 7), in Chromium at 1280 and 390 px: with the
seat's "Confirm my move" on (the default "on touch screens" on the phone, "always" chosen
in the settings on the desktop), Play draws the chosen card in its cell and asks once
more; Change goes back, only Confirm plays (by keyboard too: Enter on the cell asks,
Enter on Confirm plays), and Confirm is not where Play was. The question is said in the
live region and the focus is on Confirm. Play, Turn round, Cancel, Confirm and Change are
at least 44 px and at least 8 px apart.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.seats.core.seat import Seat
from tests.browser.shots import shot
from tests.browser.test_pages import CHROMIUM, DESKTOP, PHONE, seat_url, started_game

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]

# A hand card that fits a cell both upright and turned round, and that cell: Turn shows.
TURNABLE = """() => {
    const cards = [...document.querySelectorAll('#hand .hand-card')];
    for (const [index, card] of cards.entries()) {
        const cells = [...card.querySelectorAll('form.card-form option[data-cell]')]
            .map(o => o.dataset.cell);
        const twice = cells.find((c, i) => cells.indexOf(c) !== i);
        if (twice) return [index, twice];
    }
    return null;
}"""


def apart(page: Any, selectors: list[str]) -> list[str]:
    """What is wrong with the visible buttons of `selectors` in the bar: smaller than
    44 x 44 px, or nearer than 8 px to another."""
    boxes = [(s, page.locator(f"#turn-bar {s}").bounding_box()) for s in selectors
             if page.locator(f"#turn-bar {s}").is_visible()]
    wrong = [f"{s} {b}" for s, b in boxes if b["width"] < 44 or b["height"] < 44]
    for i, (first, a) in enumerate(boxes):
        for second, b in boxes[i + 1:]:
            gap = max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]),
                      b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
            if gap < 8:
                wrong.append(f"{first} and {second} {gap:.1f} px apart")
    return wrong


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["1280", "390"])
def test_play_asks_once_more_and_only_confirm_plays(browser: Any, live_server: Any,
                                                    device: dict[str, Any]) -> None:
    game = started_game(seed=2)  # a card fits a cell both upright and turned round
    context = browser.new_context(**{**device, "bypass_csp": False})  # the real policy
    page = context.new_page()
    page.goto(seat_url(live_server, game, 0))
    if device is DESKTOP:  # a mouse: asked only when the player says so
        assert page.evaluate("matchMedia('(pointer: coarse)').matches") is False
        page.select_option("#id_confirm_moves", "always")
        with page.expect_navigation():
            page.locator("#settings form").first.locator("button[type=submit]").click()
    assert Seat.objects.get(game=game, number=0).confirm_moves == (
        "always" if device is DESKTOP else "touch")
    index, cell = page.evaluate(TURNABLE)
    page.locator("#hand .hand-card").nth(index).locator(".card-name").click()
    page.locator(f'svg.maze .cell[data-cell="{cell}"]').click()
    bar = page.locator("#turn-bar")
    assert bar.locator("button.turn").is_visible()
    assert apart(page, ["button.turn", "button.cancel", "button.play"]) == []

    play_box = bar.locator("button.play").bounding_box()
    bar.locator("button.play").click()  # asks, plays nothing
    chosen = page.locator(f'svg.maze .cell.chosen[data-cell="{cell}"] .preview-place')
    assert chosen.count() == 1  # the card drawn in its cell
    assert "Confirm: play" in bar.locator(".what").inner_text()
    assert bar.locator("button.play").is_hidden()
    assert page.evaluate("document.activeElement.className") == "confirm"
    assert "Confirm: play" in page.locator("#announce").inner_text()
    assert apart(page, ["button.confirm", "button.change"]) == []
    # A double tap on Play lands on Change, never on Confirm.
    confirm_box = bar.locator("button.confirm").bounding_box()
    assert confirm_box["x"] + confirm_box["width"] <= play_box["x"]
    shot(page, f"confirm-move-{device['viewport']['width']}.png")

    bar.locator("button.change").click()  # back to choosing, the move kept
    assert bar.locator("button.play").is_visible()
    assert bar.locator("button.confirm").is_hidden()
    game.refresh_from_db()
    assert game.version == 0

    # By keyboard: Enter on the chosen cell (where Change left the focus) asks again,
    # Enter on Confirm plays.
    assert page.evaluate("document.activeElement.dataset.cell") == cell
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.className") == "confirm"
    game.refresh_from_db()
    assert game.version == 0
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "placed" in page.locator("#what-happened").inner_text()
    game.refresh_from_db()
    assert game.version == 1
    context.close()
