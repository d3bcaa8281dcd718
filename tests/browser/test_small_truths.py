"""Small untruths a new player met, in a real browser on a 1280 px desktop and a 390 px
phone: the maze's cell coordinates were cut by the cells' edges on a phone; the deadline
had no weekday; vacation read "168 hours"; a game whose seat was handed over vanished
from the leaver's home; saving a setting said "Saved for all your games (0)".

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.game.core.game import Game
from games.handover.services import opening, takeover
from games.people.core.home_links import home_link
from tests.browser.shots import shot
from tests.browser.test_pages import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    seat_url,
    serious_violations,
    started_game,
)
from tests.handover_support import open_row
from tests.support import make_game

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]
DEVICES = pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])

# Each coordinate label's box on the screen, and its cell's square (the cell's 100 units
# through the same transform), in CSS pixels.
LABELS_AND_CELLS = """() => [...document.querySelectorAll("svg.maze text.coord")].map(t => {
  const m = t.closest("g.cell").getScreenCTM();
  const corner = (x, y) => new DOMPoint(x, y).matrixTransform(m);
  const a = corner(0, 0), b = corner(100, 100), box = t.getBoundingClientRect();
  return {label: t.textContent, left: box.left, top: box.top, right: box.right,
          bottom: box.bottom, cell: [a.x, a.y, b.x, b.y]};
})"""


def cut_labels(page: Any) -> list[str]:
    """The coordinate labels that stick out of their cell (half a pixel of rounding)."""
    cut = []
    for found in page.evaluate(LABELS_AND_CELLS):
        left, top, right, bottom = found["cell"]
        if not (found["left"] >= left - .5 and found["top"] >= top - .5
                and found["right"] <= right + .5 and found["bottom"] <= bottom + .5):
            cut.append(f"{found['label']}: {found} ")
    return cut


@DEVICES
def test_the_cell_coordinates_lie_inside_their_cells(browser: Any, live_server: Any,
                                                     device: dict[str, Any]) -> None:
    """On a phone the labels are drawn bigger (22 units against 12) from the same
    baseline: their tops stuck out of the cells, cut by the edge of the cell above."""
    width = device["viewport"]["width"]
    game = started_game(seed=1)
    page = browser.new_page(**{**device, "bypass_csp": False})
    page.goto(seat_url(live_server, game, 0))
    labels = page.locator("svg.maze text.coord")
    assert labels.count() >= 2  # the start, the goals, the free cells next to the start
    assert cut_labels(page) == []
    height = labels.first.bounding_box()
    assert height and height["height"] >= 7  # readable at the phone's scale too
    shot(page.locator("svg.maze"), f"small-truths-maze-{width}.png")
    page.close()


@pytest.mark.parametrize("device", [DESKTOP], ids=["desktop"])
def test_the_seat_page_says_the_weekday_and_vacation_in_days(
        browser: Any, live_server: Any, device: dict[str, Any]) -> None:
    game = started_game(seed=1)
    page = browser.new_page(**{**device, "bypass_csp": False})
    page.goto(seat_url(live_server, game, 0))
    status = page.locator(".status-box").inner_text()
    weekdays = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    assert any(f"Deadline: {day} " in status for day in weekdays), status
    emails = page.locator("#emails").inner_text()
    assert "Vacation left in this game: 7 days." in emails and "168" not in emails
    shot(page.locator("#emails"), f"small-truths-vacation-{device['viewport']['width']}.png")
    page.close()


@pytest.mark.parametrize("device", [PHONE], ids=["phone"])
def test_the_leavers_home_keeps_the_game_and_saving_says_how_many(
        browser: Any, live_server: Any, device: dict[str, Any]) -> None:
    game = started_game(seed=1)  # Ann, Bob, Cy
    bob = game.seats.get(number=1)
    opening.open_seat(bob.pk)
    takeover.take_over(open_row(bob.pk).pk,
                       takeover.Newcomer(name="Nell", email="nell@example.org", language="en"))
    page = browser.new_page(**{**device, "bypass_csp": False})
    page.goto(home_link("bob@example.org").replace("http://127.0.0.1:8000", live_server.url))
    left = page.locator("#left")
    assert "Games you left" in left.inner_text()
    assert "You left: someone else plays the seat now." in left.inner_text()
    assert left.locator("a").count() == 0  # the seat's link is Nell's now
    assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"]
    shot(left, f"small-truths-left-{device['viewport']['width']}.png")
    # Bob has no game going on: his email setting changes nothing, and says so.
    with page.expect_navigation():
        page.locator("#settings form:has(input[name=email_mode]) button[type=submit]").click()
    said = page.locator(".notice").first.inner_text()
    assert said == ("Nothing was changed: this setting applies to the games going on, and "
                    "you have none.")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    page.reload()
    assert "The game is over. Winners:" in page.locator("#left").inner_text()
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_table_talk_lines_pass_the_scan(browser: Any, live_server: Any, scheme: str) -> None:
    """Each line of table talk says when it was written in small grey type beside the
    name, with its report form: readable against the page (the contrast scan) in the
    light and the dark theme alike. The width changes nothing here: one device."""
    from django.test import Client

    g = make_game(players=3, seed=3)
    for number in (1, 2):
        assert Client().post(g.page(number) + "say",
                             {"text": f"good luck & <fun> {number}"}).status_code == 302
    context = browser.new_context(**DESKTOP, color_scheme=scheme)
    page = context.new_page()
    page.goto(live_server.url + g.page(0))
    assert page.locator("#talk-messages time").count() == 2
    assert serious_violations(page) == []
    context.close()
