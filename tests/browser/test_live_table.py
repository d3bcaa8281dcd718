"""The table as a player sees it, in a real browser on a desktop and a 390 px phone: the
open seat page shows a bot's move without a reload, with the changed cell marked; the
chosen card is drawn in its cell and turned there; a rockfall's cell is marked; a map is
played by tapping a goal; every goal is shown once the game is over; on a 1280 x 800
desktop the maze and the hand are both on the first screen."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from games import engine
from games.clock.services import vacations
from games.game.core.game import Game
from games.mail.services import follow_ups
from games.moves.services import moves
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from games.seatview.core.move_forms import symmetric
from games.setup.services import game_setup
from tests.browser.polls import follow_clock, poll_now
from tests.browser.test_pages import (
    CHROMIUM,
    DEVICES,
    ON_DESKTOP,
    ON_PHONE,
    PHONE,
    STRICT,
    finished_game,
    play_move,
    seat_url,
    started_game,
)
from tests.engine.helpers import position
from tests.support import move_for, put_opening_state

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium"),
    pytest.mark.django_db(transaction=True),
]
# The page polls every few seconds: long enough for two polls.
LIVE = 15_000


@pytest.fixture
def bots_wait(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Bot turns are queued, not run at once (as with a worker): the test plays them."""
    queued: list[tuple[Any, ...]] = []
    def keep(*args: Any, **_kwargs: Any) -> None:
        queued.append(args)

    monkeypatch.setattr(moves, "queue_bot_turn", keep)
    monkeypatch.setattr(follow_ups, "queue_bot_turn", keep)
    return queued


def game_with_bots(seed: int) -> Game:
    players = [game_setup.PlayerSpec(name="Ann", email="ann@example.org"),
               game_setup.PlayerSpec(name="Bert", bot=True),
               game_setup.PlayerSpec(name="Cy", bot=True)]
    return game_setup.create_game(name="Live game", players=players, seed=seed,
                                start=True).game


def bot_places_a_card(game: Game) -> tuple[int, int]:
    """The bot seat to act places a card (as the seat: the test picks the placement); its
    cell."""
    game.refresh_from_db()
    state = game.state()
    move = next(m for m in engine.legal_moves(state) if m["type"] == "place")
    move_for(game.pk, game.version, {**move, "seat": state.actor},
                        seat_number=state.actor)  # the bot's seat
    return move["x"], move["y"]


@ON_DESKTOP
def test_a_bots_move_appears_on_the_open_page_without_a_reload(
        browser: Any, live_server: Any, device: dict[str, Any],
        bots_wait: list[tuple[Any, ...]]) -> None:
    game = game_with_bots(seed=3)
    context = browser.new_context(**{**device, "bypass_csp": False})  # the real policy
    page = context.new_page()
    follow_clock(page)
    page.goto(seat_url(live_server, game, 0))
    assert page.locator(".refresh-link").is_hidden()  # the page follows the game itself
    # Ann plays by the page; her move shows, the bot's turn is queued.
    page.locator(".hand-card:has(form.card-form[data-cells]:not([data-cells='']))").first \
        .locator(".card-name, .action-face").first.click()
    page.locator("svg.maze .cell.lit").first.click()
    play_move(page, page.locator("#turn-bar button.play"))
    game.refresh_from_db()
    assert game.actor is not None
    assert Seat.objects.get(game=game, number=game.actor).is_bot  # its move is queued
    page.evaluate("window.notReloaded = true")
    x, y = bot_places_a_card(game)
    poll_now(page)
    changed = page.locator(f'svg.maze .cell.changed[data-cell="{x},{y}"]')
    expect(changed).to_have_count(1, timeout=LIVE)
    expect(page.locator("#log li.fresh").first).to_contain_text("Bert (bot) placed")
    assert page.evaluate("window.notReloaded === true"), "the page was not reloaded"
    context.close()


def test_a_choice_in_progress_is_kept_when_others_move(browser: Any, live_server: Any,
                                                       bots_wait: list[tuple[Any, ...]]
                                                       ) -> None:
    """Nothing the player was choosing is lost. A line of table talk alone appears at
    once, choice or not, and raises no "New moves were made" (issue 39: it did); news of
    the table (here a vacation) waits, and the bar says so, without calling it moves."""
    game = started_game(seed=3)
    page = browser.new_page(**STRICT)
    follow_clock(page)
    page.goto(seat_url(live_server, game, 1))  # Bob, who is not to play: chooses nothing
    page.evaluate("window.notReloaded = true")
    mine = browser.new_page(**STRICT)
    follow_clock(mine)
    mine.goto(seat_url(live_server, game, 0))
    mine.locator("#talk textarea, #talk input[type=text]").first.fill("half a sentence")
    select = mine.locator("form.card-form select").first
    select.select_option(index=1)
    chosen = select.input_value()
    # Someone else says something at the table: the pages learn it by polling.
    services.post_message(Seat.objects.get(game=game, number=1), "Good luck!")
    poll_now(page)
    expect(page.locator("#talk-messages")).to_contain_text("Good luck!", timeout=LIVE)
    assert page.evaluate("window.notReloaded === true")
    poll_now(mine)
    expect(mine.locator("#talk-messages")).to_contain_text("Good luck!", timeout=LIVE)
    assert mine.locator("#turn-bar .pending").is_hidden()  # no moves were made
    assert select.input_value() == chosen
    assert mine.locator("#talk textarea, #talk input[type=text]").first.input_value() == (
        "half a sentence")
    # A table notice is news of the game: it waits for the choice, and the bar says so.
    vacations.take_vacation(Seat.objects.get(game=game, number=1).pk, timedelta(days=1))
    pending = mine.locator("#turn-bar .pending")
    poll_now(mine)
    expect(pending).to_be_visible(timeout=LIVE)
    assert "Something happened at the table" in pending.inner_text()
    assert "New moves" not in pending.inner_text()
    assert select.input_value() == chosen
    mine.locator("#turn-bar button.show-new").click()  # the player asks: the choice goes
    expect(mine.locator("#log")).to_contain_text("vacation")
    assert mine.locator("form.card-form select").first.input_value() == ""
    page.close()
    mine.close()


def _position_page(browser: Any, live_server: Any, device: dict[str, Any],
                   state: engine.State) -> tuple[Any, Game]:
    game = started_game(seed=3)
    put_opening_state(game, state)
    game.save()
    page = browser.new_page(**device)
    page.goto(seat_url(live_server, game, 0))
    return page, game


@DEVICES
def test_the_chosen_card_is_drawn_in_its_cell_and_turned_there(browser: Any, live_server: Any,
                                                               device: dict[str, Any]) -> None:
    # A T-junction N-E-S above the start fits upright and turned round (N-W-S).
    state = position(seats=3, turn=0, hands={0: ["p17", "p05"]})
    page, game = _position_page(browser, live_server, device, state)
    assert not symmetric(engine.card_json(engine.rules_for("base").cards["p17"]))
    page.locator('.hand-card[data-card="p17"] .card-name').click()
    page.locator('svg.maze .cell[data-cell="0,-1"]').click()
    bar = page.locator("#turn-bar")
    drawn = page.locator('svg.maze .cell.chosen[data-cell="0,-1"] .preview-place')
    expect(drawn).to_have_count(1)
    assert "upright" in bar.inner_text()
    assert drawn.locator("> g").get_attribute("transform") is None
    turn = bar.locator("button.turn")
    assert turn.is_visible()
    turn.click()
    assert "turned round" in bar.inner_text()
    assert drawn.locator("> g").get_attribute("transform") == "rotate(180 50 50)"
    play_move(page, bar.locator("button.play"))
    game.refresh_from_db()
    placed = game.state().board[(0, -1)]
    assert placed == ("p17", True)
    page.close()


@ON_PHONE
def test_a_rockfall_marks_its_cell_and_a_map_is_played_by_tapping_a_goal(
        browser: Any, live_server: Any, device: dict[str, Any]) -> None:
    state = position(seats=3, turn=0, hands={0: ["a20", "a25"]},
                     board={(1, 0): ("p05", False)})
    page, game = _position_page(browser, live_server, device, state)
    page.locator('.hand-card[data-card="a20"] .action-face').click()
    page.locator('svg.maze .cell[data-cell="1,0"]').click()
    expect(page.locator('svg.maze .cell.chosen[data-cell="1,0"] .preview-rockfall')) \
        .to_have_count(1)
    assert "remove" in page.locator("#turn-bar .what").inner_text()
    page.locator("#turn-bar button.cancel").click()
    expect(page.locator("svg.maze .preview")).to_have_count(0)
    page.locator('.hand-card[data-card="a25"] .action-face').click()
    goals = page.locator("svg.maze .cell.lit")
    assert sorted(g.get_attribute("data-cell") for g in goals.all()) == ["8,-2", "8,0", "8,2"]
    page.locator('svg.maze .cell[data-cell="8,2"]').click()
    play = page.locator("#turn-bar button.play")
    assert play.is_enabled() and "bottom goal" in page.locator("#turn-bar .what").inner_text()
    play_move(page, play)
    assert "looked at the bottom goal" in page.locator("#what-happened").inner_text()
    game.refresh_from_db()
    assert game.state().known_goals[0] == [2]
    page.close()


@ON_PHONE
def test_every_goal_is_shown_when_the_game_is_over(browser: Any, live_server: Any,
                                                   device: dict[str, Any]) -> None:
    game = finished_game(seed=31)
    page = browser.new_page(**device)
    page.goto(seat_url(live_server, game, 1))
    for cell in ("8,-2", "8,0", "8,2"):
        face = page.locator(f'svg.maze .cell[data-cell="{cell}"] rect.card.goal')
        expect(face).to_have_count(1)
    assert page.locator("svg.maze .card.back").count() == 0
    goals = page.locator("#maze ul.goals").inner_text()
    assert "face down" not in goals and "gold" in goals
    status = page.locator("#status").inner_text()
    assert "secret role" not in status and "The game is over." in status
    assert "\nfinished." not in status
    page.close()


def test_the_maze_and_the_hand_are_on_the_first_screen_of_a_desktop(browser: Any,
                                                                     live_server: Any) -> None:
    game = started_game(seed=6)
    page = browser.new_page(**{**STRICT, "viewport": {"width": 1280, "height": 800}})
    page.goto(seat_url(live_server, game, 0))
    expect(page.locator("svg.maze")).to_be_in_viewport(ratio=0.9)
    for card in page.locator("#hand .hand-card").all():
        expect(card).to_be_in_viewport(ratio=0.99)
    page.close()
    phone = browser.new_page(**PHONE)
    phone.goto(seat_url(live_server, game, 0))
    cards = phone.locator("#hand .cards")
    box, row = cards.bounding_box(), cards.locator(".hand-card").nth(1).bounding_box()
    assert box and row
    assert box["x"] + box["width"] - (row["x"] + row["width"]) < 4, "no empty strip"
    phone.close()


def test_without_javascript_the_page_names_the_lists_and_has_a_refresh_link(
        browser: Any, live_server: Any) -> None:
    game = started_game(seed=6)
    context = browser.new_context(java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.goto(seat_url(live_server, game, 0))
    hint = page.locator("#hand .hint").inner_text()
    assert "tap" not in hint and "list under it" in hint
    with page.expect_navigation():
        page.locator(".refresh-link").click()
    context.close()


# Every fetch the page makes, recorded as it is made (the page's own clock is faked below).
RECORD_FETCHES = """
window.asked = [];
const realFetch = window.fetch;
window.fetch = function (url) {
  window.asked.push(String(url));
  return realFetch.apply(this, arguments);
};
"""


def test_the_page_waits_out_a_429_on_its_live_parts(browser: Any, live_server: Any) -> None:
    """/play/<secret>/live counts against the link's limit like the API: a 429 from it is
    honoured, nothing at all is asked before its Retry-After is over, then the page
    catches up. The page's clock is Playwright's: time moves only when the test says."""
    game = started_game(seed=3)
    context = browser.new_context(**STRICT)
    context.add_init_script(RECORD_FETCHES)
    page = context.new_page()
    page.clock.install()
    page.clock.pause_at(1_800_000_000_000)
    refused: list[str] = []

    def busy(route: Any) -> None:
        refused.append(route.request.url)
        route.fulfill(status=429, headers={"Retry-After": "60"}, body="Too many requests")

    page.route("**/live", busy)
    page.goto(seat_url(live_server, game, 1))
    services.post_message(Seat.objects.get(game=game, number=0), "Good luck!")
    with page.expect_response(lambda answer: answer.url.endswith("/live")):
        page.clock.run_for(3_500)  # the first poll sees the message; its parts: 429
    assert len(refused) == 1
    asked = page.evaluate("window.asked.length")
    page.clock.run_for(58_000)  # within the minute the 429 asked for
    assert page.evaluate("window.asked.length") == asked, page.evaluate("window.asked")
    page.unroute("**/live")
    with page.expect_response(lambda answer: answer.url.endswith("/live")
                              and answer.status == 200):
        page.clock.run_for(6_000)
    expect(page.locator("#talk-messages")).to_contain_text("Good luck!")
    assert len(refused) == 1
    context.close()
