"""The first lesson played through in a real browser (issue 48, item 6), in English on a
desktop and in Italian on a 390 px phone: /learn/ starts it, each of the five steps is
on the seat page in the reader's language with its card starred in the hand (and its
cell on the maze), the learner plays what the guide says, the bots answer with the
script's moves, and after the gold the lesson says a normal game goes on. In English the
page follows the bots on its own and reads the new step out (the live region); in
Italian the first step's seat page passes the accessibility scan and fits the phone
(/learn/ itself is in test_wcag_scan.py's pages).

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.game.core.game import Game
from games.learn.core import first_round as lesson
from games.seatview.core.move_forms import move_value
from tests.browser.polls import follow_clock, poll_now
from tests.browser.test_pages import CHROMIUM, DESKTOP, PHONE, play_move, serious_violations

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


def heading(language: str, number: int) -> str:
    with translation.override(language):
        return (translation.gettext("Lesson, step %(n)s of %(total)s:")
                % {"n": number, "total": len(lesson.STEPS)}
                + " " + lesson.STEPS[number - 1].title())


@pytest.mark.parametrize(("language", "screen"), [("en", DESKTOP), ("it", PHONE)],
                         ids=["en-1280", "it-390"])
def test_the_lesson_played_through(browser: Any, live_server: Any, worker: Any,
                                   settings: Any, language: str,
                                   screen: dict[str, Any]) -> None:
    settings.BOT_MOVE_DELAY_SECONDS = 0
    context = browser.new_context(**screen)
    page = context.new_page()
    scan = language == "it"  # the scan once (the phone), the page followed once (desktop)
    follow_clock(page)
    page.goto(f"{live_server.url}/learn/?lang={language}")
    assert Game.objects.count() == 0
    with page.expect_navigation():
        page.locator("form.learn-form button[type=submit]").click()
    box = page.locator("#lesson")
    for number, step in enumerate(lesson.STEPS, start=1):
        if number == 2 and not scan:  # the page follows the bots, and says the new step
            worker.settle()
            poll_now(page)
            page.locator('#lesson[data-key="step-2"]').wait_for(timeout=20_000)
            assert heading(language, 2) in page.locator("#announce").inner_text()
        else:
            worker.settle()
            page.reload()
        assert box.get_attribute("data-key") == f"step-{number}"
        assert heading(language, number) in box.locator("h2").inner_text()
        if number == 1 and scan:
            assert serious_violations(page) == []
            width = screen["viewport"]["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        move = lesson.MOVES[step.version]
        card = page.locator(f'.hand-card.lesson-card[data-card="{move["card"]}"]')
        assert "★" in card.locator(".lesson-mark").inner_text()
        if "x" in move:
            assert page.locator(f'svg.maze .cell.pointed[data-cell="{move["x"]},{move["y"]}"]'
                                ).count() == 1
        card.locator("select[name=move]").select_option(move_value(move))
        if number == 1 and not scan:  # the page is drawn before the bots answer
            with worker.held():
                play_move(page, card.locator("form.card-form button[type=submit]"))
        else:
            play_move(page, card.locator("form.card-form button[type=submit]"))
    worker.settle()
    page.reload()
    assert box.get_attribute("data-key").startswith("gold-")  # type: ignore[union-attr]
    with translation.override(language):
        assert translation.gettext("The gold is found") in box.inner_text()
    for _pick in range(3):  # the finder picks first; with 3 cards for 2 diggers, twice
        if box.get_attribute("data-key") == "over":
            break
        page.locator("form.other-moves input[type=radio]").first.check()
        with page.expect_navigation():
            page.locator("form.other-moves button[type=submit]").click()
        worker.settle()
        page.reload()
    assert box.get_attribute("data-key") == "over"
    game = Game.objects.get()
    assert game.state().round == 2 and game.status == Game.Status.ACTIVE
    assert [m["card"] for m in game.moves.order_by("number").values_list("move", flat=True)
            ][:len(lesson.MOVES)] == [m["card"] for m in lesson.MOVES]
    context.close()
