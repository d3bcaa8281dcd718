"""The pages in a real browser: Playwright driving Debian's Chromium, on a desktop and a
390 px phone. Setting up a game on /new/, a move by clicking a card and a lit cell, a
stale tab, JavaScript off, tap targets, and an axe-core accessibility scan (vendored in
tests/browser/vendor) of the seat and setup pages: no violation of a WCAG 2.2 A or AA rule,
no serious or critical one of its best practices.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.core import mail

from games import engine
from games.game.core.game import Game, Move
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.seatview.core import describe
from games.setup.services import game_setup
from tests.browser.conftest import CHROMIUM
from tests.support import choose, move_for

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
# The axe scan injects its script into the page, which the Content-Security-Policy forbids:
# those pages bypass it (test_the_page_script_runs_under_the_policy checks the policy).
DESKTOP = {"viewport": {"width": 1280, "height": 900}, "bypass_csp": True}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2, "bypass_csp": True}
STRICT = {"viewport": {"width": 1280, "height": 900}}
# Where the width changes what a player does or sees (a tap or a click, where a card is
# drawn, what fits), a test runs on a desktop and on a phone. A flow that only the page's
# script or server decides runs on one of them, the two shared out between the tests: each
# run of a browser test costs a second or more of the browser's CPU, and the layouts at
# both widths are test_one_screen's, test_wcag_scan's and test_seat_truth's.
DEVICES = pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
ON_PHONE = pytest.mark.parametrize("device", [PHONE], ids=["phone"])
ON_DESKTOP = pytest.mark.parametrize("device", [DESKTOP], ids=["desktop"])

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


def started_game(seed: int = 3) -> Game:
    players = [game_setup.PlayerSpec(name=n, email=f"{n.lower()}@example.org")
               for n in ("Ann", "Bob", "Cy")]
    return game_setup.create_game(name="Browser game", players=players, seed=seed,
                                start=True).game


def seat_url(live_server: Any, game: Game, number: int) -> str:
    seat = Seat.objects.get(game=game, number=number)
    return link_for(seat).replace("http://127.0.0.1:8000", live_server.url)


def play_move(page: Any, button: Any, *, tap: bool = False) -> None:
    """Press a Play button (the bar's or a card's) and wait for the page the move brings.
    On a touch screen the page asks once more first (the seat's "Confirm my move", on
    there by default: tests/browser/test_confirm_move.py): Confirm."""
    with page.expect_navigation():
        button.tap() if tap else button.click()
        confirm = page.locator("#turn-bar button.confirm")
        if confirm.is_visible():  # asked (never without the page's script)
            confirm.tap() if tap else confirm.click()


# The WCAG 2.0, 2.1 and 2.2 success criteria at levels A and AA that axe-core tests (its
# 2.2 rules, target size among them, run only when asked for by tag).
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]


def serious_violations(page: Any) -> list[str]:
    """What axe-core finds on the page: every violation of a WCAG 2.2 A or AA rule,
    whatever its impact, and the serious or critical ones of its best practices."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        "async tags => await axe.run(document, {runOnly: {type: 'tag', values: tags}, "
        "resultTypes: ['violations']})", [*WCAG_22_AA, "best-practice"])
    return [f"{v['id']} ({v['impact']}): {v['help']}: "
            + "; ".join(n["target"][0] + " " + n.get("failureSummary", "")[:160]
                        for n in v["nodes"][:6])
            for v in result["violations"]
            if set(v["tags"]) & set(WCAG_22_AA) or v["impact"] in ("serious", "critical")]


@ON_PHONE
def test_a_host_sets_up_a_game_in_the_browser(browser: Any, live_server: Any, worker: Any,
                                              device: dict[str, Any]) -> None:
    page = browser.new_page(**device)
    page.goto(live_server.url + "/new/")
    assert serious_violations(page) == []
    page.fill("#id_name", "Friday game")
    page.fill("#id_host_email", "host@example.org")
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        page.fill(f"#id_player_{i}_name", name)
        page.fill(f"#id_player_{i}_email", f"{name.lower()}@example.org")
    with page.expect_navigation():
        page.click("form.setup button[type=submit]")
    page.wait_for_url(re.compile(r"/new/sent/$"))
    assert "Check your mailbox" in page.content()
    worker.settle()
    [letter] = mail.outbox
    confirm = re.search(r"http://127\.0\.0\.1:8000(/new/confirm/\S+/)", str(letter.body))
    assert confirm
    page.goto(live_server.url + confirm.group(1))
    with page.expect_navigation():
        page.click("text=Send the invitations")
    links = page.locator("table.links a")
    assert links.count() == 3
    worker.settle()
    assert len([m for m in mail.outbox if "invited" in m.subject]) == 3
    page.close()


@DEVICES
def test_a_move_by_clicking_a_card_and_a_lit_cell(browser: Any, live_server: Any,
                                                  device: dict[str, Any]) -> None:
    game = started_game()
    page = browser.new_page(**device)
    page.goto(seat_url(live_server, game, 0))
    assert serious_violations(page) == []
    card = page.locator(".hand-card:has(form.card-form[data-cells]:not([data-cells='']))").first
    card.locator(".card-name, .action-face").first.click()
    bar = page.locator("#turn-bar")
    # A click where the card does not fit (the start card) says so instead of nothing.
    page.locator('svg.maze .cell[data-cell="0,0"]').click()
    assert "does not fit there" in bar.inner_text()
    lit = page.locator("svg.maze .cell.lit").first
    lit.click()
    assert bar.is_visible() and ": place at" in bar.inner_text()
    play_move(page, bar.locator("button.play"))
    assert "placed" in page.locator("#what-happened").inner_text()
    game.refresh_from_db()
    assert game.version == 1
    page.close()


def test_the_page_script_runs_under_the_policy(browser: Any, live_server: Any) -> None:
    game = started_game(seed=7)
    context = browser.new_context(**STRICT)
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    answer = page.goto(seat_url(live_server, game, 0))
    assert answer and "script-src 'self'" in answer.headers["content-security-policy"]
    card = page.locator(".hand-card:has(form.card-form[data-cells]:not([data-cells='']))").first
    card.locator(".card-name, .action-face").first.click()
    assert page.locator("#turn-bar").is_visible()  # play.js ran
    assert page.locator("svg.maze .cell.lit").count() > 0
    assert refused == []
    context.close()


@ON_DESKTOP
def test_a_stale_tab_is_told_and_makes_no_move(browser: Any, live_server: Any,
                                               device: dict[str, Any]) -> None:
    game = started_game(seed=4)
    context = browser.new_context(**{**device, "bypass_csp": False})
    first, second = context.new_page(), context.new_page()
    url = seat_url(live_server, game, 0)
    first.goto(url)
    second.goto(url)
    for tab in (first, second):
        select = tab.locator("form.card-form select").first
        value = select.locator("option").nth(1).get_attribute("value")
        select.select_option(value)
    play_move(first, first.locator("form.card-form").first.locator("button[type=submit]"))
    play_move(second, second.locator("form.card-form").first.locator("button[type=submit]"))
    assert "since you loaded this page" in second.locator("#what-happened").inner_text()
    assert not second.url.endswith("/move")  # a reload does not send the move again
    game.refresh_from_db()
    assert game.version == 1
    context.close()


@ON_PHONE
def test_the_game_plays_with_javascript_off(browser: Any, live_server: Any,
                                            device: dict[str, Any]) -> None:
    game = started_game(seed=5)
    context = browser.new_context(java_script_enabled=False, **device)
    page = context.new_page()
    page.goto(seat_url(live_server, game, 0))
    form = page.locator("form.card-form").first
    select = form.locator("select")
    select.select_option(select.locator("option").nth(1).get_attribute("value"))
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    game.refresh_from_db()
    assert game.version == 1
    context.close()


def test_a_whole_turn_fits_one_phone_screen(browser: Any, live_server: Any) -> None:
    game = started_game(seed=6)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(seat_url(live_server, game, 0))
    assert serious_violations(page) == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page itself must not scroll sideways (the maze box does)"
    target = page.locator("svg.maze .cell.target").first.bounding_box()
    assert target and target["width"] >= 44 and target["height"] >= 44
    card = page.locator(".hand-card:has(form.card-form[data-cells]:not([data-cells='']))").first
    card.locator(".card-name, .action-face").first.tap()
    lit = page.locator("svg.maze .cell.lit").first
    from playwright.sync_api import expect
    expect(lit).to_be_in_viewport(ratio=0.95)  # the page scrolled the lit cell into view
    box = lit.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844
    lit.tap()
    play = page.locator("#turn-bar button.play").bounding_box()
    assert play and play["y"] + play["height"] <= 844 and play["height"] >= 44
    play_move(page, page.locator("#turn-bar button.play"), tap=True)
    game.refresh_from_db()
    assert game.version == 1
    context.close()


def finished_game(seed: int) -> Game:
    """A base game played to its end through the services (the quick test policy), with
    a long name that widens the table of hands."""
    players = [game_setup.PlayerSpec(name=n, email=f"{n[:3].lower()}@example.org")
               for n in ("Annemarie-Kunigunde", "Bob", "Cy")]
    game = game_setup.create_game(name="Browser game", players=players, seed=seed,
                                start=True).game
    rng = random.Random(seed)
    while not (state := game.state()).finished:
        move = choose(engine.legal_moves(state), rng)
        game = move_for(game.pk, game.version, {**move, "seat": state.actor},
                                   actor_kind=Move.Actor.SEAT, seat_number=state.actor)
    return game


def test_a_player_replays_round_two_on_a_phone(browser: Any, live_server: Any) -> None:
    game = finished_game(seed=31)
    moves = [m.move for m in game.moves.order_by("number")]
    context = browser.new_context(**{**PHONE, "bypass_csp": False})  # the real policy
    page = context.new_page()
    page.goto(seat_url(live_server, game, 1))
    with page.expect_navigation():
        page.click("a.replay-link")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # No script needed to jump: the round selector is a plain GET form.
    page.select_option("#replay-round", label="the start of round 2")
    with page.expect_navigation():
        page.click("form.round-jump button[type=submit]")
    start = int(re.search(r"step=(\d+)", page.url).group(1))  # type: ignore[union-attr]
    assert "(round 2)" in page.locator(".step-count").inner_text()
    # With the script, the right arrow steps on (two moves into round 2), the left back.
    for key, step in (("ArrowRight", start + 1), ("ArrowRight", start + 2),
                      ("ArrowLeft", start + 1), ("ArrowRight", start + 2)):
        with page.expect_navigation():
            page.keyboard.press(key)
        assert page.url.endswith(f"step={step}")
    step = start + 2
    assert f"Move {step} of {len(moves)} (round 2)" in page.locator(".step-count").inner_text()
    state = engine.replay(3, game.seed, moves[:step], "base", game.options)
    assert state.round == 2
    expected = [", ".join(describe.card_name(c) for c in hand) or "—"
                for hand in engine.moderator_view(state)["hands"]]
    assert page.locator("td.hand-list").all_inner_texts() == expected
    assert page.locator(".replay-seats tbody td:first-child").all_inner_texts() == [
        "Annemarie-Kunigunde", "Bob", "Cy"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, (
        "the replay must not scroll sideways on a phone")
    # The maze (start to goals: 9 cards wide) scrolls in its box, and the page says so.
    assert page.locator(".maze-box .maze-hint").is_visible()
    replay_url = page.url
    context.close()
    scanned = browser.new_page(**PHONE)  # axe needs the policy bypassed
    scanned.goto(replay_url)
    assert serious_violations(scanned) == []
    scanned.close()


def test_a_long_game_fits_a_phone_with_big_enough_controls(browser: Any,
                                                           live_server: Any) -> None:
    """A finished game's log (about 200 lines) scrolls in its own box: without it the seat
    page was 13,000 px tall on a phone. On a phone every form control of the seat page and
    the replay's step links are at least 44 px high."""
    game = finished_game(seed=32)
    page = browser.new_page(**PHONE)
    page.goto(seat_url(live_server, game, 0))
    box = page.locator("#log .log-scroll")
    assert box.get_attribute("tabindex") == "0" and box.get_attribute("role") == "region"
    assert box.evaluate("e => e.scrollHeight > e.clientHeight")  # it scrolls, and
    assert box.bounding_box()["height"] <= 24 * 16 + 1  # type: ignore[index]
    # Far below the 13,000 px of a log that does not scroll in its box; the page also holds
    # the suspicion sheet (games.notes: every other seat's three rounds of notes).
    assert page.evaluate("document.documentElement.scrollHeight") < 8000
    assert serious_violations(page) == []
    with page.expect_navigation():
        page.click("a.replay-link")
    for link in page.locator(".replay-nav > a").all():
        size = link.bounding_box()
        assert size and size["height"] >= 44 and size["width"] >= 44, link.inner_text()
    live = started_game(seed=6)
    page.goto(seat_url(live_server, live, 0))
    controls = page.locator("main button:visible, main select:visible, main textarea:visible")
    assert controls.count() > 10
    small = [(c.evaluate("e => e.outerHTML.slice(0, 60)"), c.bounding_box())
             for c in controls.all() if c.bounding_box()["height"] < 44]  # type: ignore[index]
    assert small == []
    page.close()


def test_the_card_list_of_the_rules_draws_every_card_the_same_size(browser: Any,
                                                                   live_server: Any) -> None:
    """A long name beside a card ("T-junction E-S-W + stub N (1 crystal)") squeezed its
    drawing to half size on a phone."""
    page = browser.new_page(**PHONE)
    page.goto(f"{live_server.url}/rules/saboteur2/")
    widths = {round(svg.bounding_box()["width"])  # type: ignore[index]
              for svg in page.locator(".card-catalog li > svg").all()}
    assert len(widths) == 1 and widths.pop() >= 40
    page.close()


def test_a_phone_says_the_maze_scrolls_sideways(browser: Any, live_server: Any) -> None:
    """On a 390 px phone the maze is wider than its box and the goal cards start off
    screen: a caption above it says to swipe. On a desktop, where the maze fits, it is
    hidden."""
    game = started_game(seed=6)
    hint = "Scroll or swipe sideways to see the whole maze."
    for options, wide in (({**PHONE, "bypass_csp": False}, True),
                          ({**STRICT, "viewport": {"width": 1280, "height": 800}}, False)):
        page = browser.new_page(**options)
        page.goto(seat_url(live_server, game, 0))
        box = page.locator("#maze .maze-scroll")
        assert box.evaluate("e => e.scrollWidth > e.clientWidth") is wide
        caption = page.get_by_text(hint)
        if wide:
            from playwright.sync_api import expect
            expect(caption).to_be_in_viewport()
            above = caption.bounding_box()
            assert above and above["y"] < box.bounding_box()["y"]  # type: ignore[index]
        else:
            assert caption.is_hidden()
        page.close()
