"""Choose, see and play on one screen (issue 39, item 10): after choosing a card, every
lit cell of the maze, the preview of the chosen move, the chosen card and the Play and
Turn round buttons are on screen without scrolling, on a 390 x 844 phone and on a 1280 px
desktop, over several game positions: the first turn, a late round with a wide maze (19
cards), and Saboteur 2; and no card's name runs out of its tile (the longest Italian
names). Screenshots of each go to /tmp/one-screen-*.png.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import engine
from games.engine.types import Move
from games.game.core.game import Game
from games.setup.services import game_setup
from tests.browser.shots import shot
from tests.browser.test_pages import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    seat_url,
)
from tests.engine.helpers import position as engine_position
from tests.support import move_for, put_opening_state

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


def spreading(legal: list[Move], rng: random.Random) -> Move:
    """Dig away from the goals (west, north, south): a maze as wide as games get."""
    places = [m for m in legal if m["type"] == "place"]
    if places:
        return max(places, key=lambda m: (abs(m["y"]) * 2 - m["x"], rng.random()))
    return next((m for m in legal if m["type"] == "pass"), legal[0])


def position(ruleset: str, seed: int, moves: int) -> Game:
    """A 3-seat game after at least `moves` moves (the spreading policy), at a turn of
    seat 0 with a path card to place."""
    players = [game_setup.PlayerSpec(name=n, email=f"{n.lower()}@example.org")
               for n in ("Ann", "Bob", "Cy")]
    game = game_setup.create_game(name=f"{ruleset} {seed}", players=players, seed=seed,
                                ruleset=ruleset, start=True, invite=False).game
    rng = random.Random(seed)
    made = 0
    while True:
        state = game.state()
        legal = engine.legal_moves(state)
        if made >= moves and state.actor == 0 and any(m["type"] == "place" for m in legal):
            return game
        move = spreading(legal, rng)
        game = move_for(game.pk, game.version, {**move, "seat": state.actor})
        made += 1


POSITIONS = [("early", "base", 6, 0), ("late-wide", "base", 13, 24),
             ("late-tall", "base", 28, 24), ("saboteur2", "saboteur2", 5, 9)]
# Saboteur 2 in Italian with the longest card names in hand (issue 39: they ran out of
# their tiles): path cards, repairs of two tools, a broken tool, swap your hats.
LONG_NAMES = ["p66", "a18", "p56", "a07", "a39", "p51"]


def italian_long_names() -> Game:
    players = [game_setup.PlayerSpec(name=n, email=f"{n.lower()}@example.org", language="it")
               for n in ("Ann", "Bob", "Cy")]
    game = game_setup.create_game(name="Nomi lunghi", players=players, seed=3,
                                ruleset="saboteur2", start=True, invite=False).game
    put_opening_state(game, engine_position(seats=3, turn=0, ruleset="saboteur2",
                                           hands={0: LONG_NAMES}))
    game.save()
    return game


def overflowing_tiles(page: Any) -> list[str]:
    """Hand cards whose name runs out of its box or out of the card's tile."""
    return page.evaluate("""() => {
        const out = [];
        document.querySelectorAll('.hand-card').forEach(card => {
            const tile = card.getBoundingClientRect();
            card.querySelectorAll('.action-face, .card-name').forEach(name => {
                const r = name.getBoundingClientRect();
                const spills = name.scrollHeight > name.clientHeight + 1
                    || name.scrollWidth > name.clientWidth + 1
                    || r.left < tile.left || r.right > tile.right
                    || r.top < tile.top || r.bottom > tile.bottom;
                if (spills) out.push(name.textContent.trim());
            });
        });
        return out;
    }""")


def on_screen(page: Any, selector: str, room: float) -> list[str]:
    """The elements of `selector` not wholly inside the screen above `room` px and inside
    the maze box's visible part (a cell scrolled away inside its box is not seen)."""
    return page.evaluate("""([selector, room]) => {
        const box = document.querySelector('#maze .maze-scroll').getBoundingClientRect();
        const out = [];
        document.querySelectorAll(selector).forEach(e => {
            const r = e.getBoundingClientRect();
            const inside = r.left >= Math.max(0, box.left) - 1 && r.top >= Math.max(0, box.top) - 1
                && r.right <= Math.min(innerWidth, box.right) + 1
                && r.bottom <= Math.min(room, box.bottom) + 1 && r.width > 0;
            if (!inside) out.push((e.dataset.cell || e.className.baseVal || '') + ' ' +
                                  JSON.stringify([r.left, r.top, r.right, r.bottom]));
        });
        return out;
    }""", [selector, room])


def check_every_card(page: Any, name: str, width: int, height: int) -> int:
    """Choose each card that lights cells; the cells, a preview and the buttons on one
    screen each time; how many cards were tried."""
    cards = page.locator(".hand-card:has(form.card-form[data-cells]:not([data-cells='']))")
    bar = page.locator("#turn-bar")
    tried = 0
    for index in range(cards.count()):
        card = cards.nth(index)
        card.locator(".card-name, .action-face").first.click()
        room = bar.bounding_box()["y"]  # type: ignore[index]
        assert page.locator("svg.maze .cell.lit").count() > 0
        assert on_screen(page, "svg.maze .cell.lit", room) == [], (name, index)
        page.locator("svg.maze .cell.lit").last.click()
        assert bar.locator("button.play").is_enabled()
        room = bar.bounding_box()["y"]  # type: ignore[index]
        assert on_screen(page, "svg.maze .preview", room) == [], (name, index)
        assert on_screen(page, "svg.maze .cell.lit", room) == [], (name, index)
        for button in ("button.play", "button.turn"):
            found = bar.locator(button)
            if found.is_visible():
                box = found.bounding_box()
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= height
                assert box["x"] >= 0 and box["x"] + box["width"] <= width
                assert box["height"] >= 44
        chosen = bar.locator(".bar-card svg")
        if card.locator("svg.card-svg").count():
            assert chosen.is_visible()  # the chosen card, as it will lie
        shot(page, f"one-screen-{name}-{width}-{index}.png")
        bar.locator("button.cancel").click()
        tried += 1
    return tried


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_chosen_card_its_lit_cells_and_play_fit_one_screen(
        browser: Any, live_server: Any, device: dict[str, Any]) -> None:
    width, height = device["viewport"]["width"], device["viewport"]["height"]
    context = browser.new_context(**{**device, "bypass_csp": False})  # the real policy
    page = context.new_page()
    tried = 0
    games = [(name, position(ruleset, seed, moves)) for name, ruleset, seed, moves in POSITIONS]
    for name, game in [*games, ("italian-long-names", italian_long_names())]:
        page.goto(seat_url(live_server, game, 0))
        shot(page, f"one-screen-{name}-{width}-page.png")
        assert overflowing_tiles(page) == [], name
        tried += check_every_card(page, name, width, height)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page.locator("#hand"), f"one-screen-italian-hand-{width}.png")
    assert tried >= 8
    context.close()
