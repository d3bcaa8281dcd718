"""Saboteur 2's blue and green doors told apart without hue: Chromium renders the door
cards as the rules page, the hand and the maze draw them; each door's parts keep 3:1
contrast against what lies around them (WCAG 1.4.11) for every reader, and a blue and a
green door on the same tunnels stay plainly different pictures under protanopia,
deuteranopia and tritanopia (Machado 2009) and in grey: the shape (round, diamond)
carries the colour. Screenshots of the cards go to /tmp/doors-*.png.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.game.core.game import Game
from games.setup.services import game_setup
from tests.browser.shots import shot
from tests.browser.test_pages import CHROMIUM, PHONE, seat_url
from tests.colour_vision import (
    VISIONS,
    contrast,
    css_colour,
    delta_e,
    differing_share,
    png_pixels,
    seen,
)
from tests.engine.helpers import position as engine_position
from tests.support import put_opening_state

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]

# WCAG 1.4.11: graphical objects needed to understand the content, 3:1 against adjacent
# colours.
NON_TEXT = 3.0
# The share of a card's pixels a blue and a green door on the same tunnels must show
# plainly apart (CIE76 over 20) whatever the reader's colour vision: the shapes' non-
# overlapping parts and the keyhole's place, about 4 % of the card.
SHAPE_APART = 0.02

COLOURS = """svg => {
    const fill = sel => getComputedStyle(svg.querySelector(sel)).fill;
    const stroke = sel => getComputedStyle(svg.querySelector(sel)).stroke;
    return {door: fill('.door-shape'), ring: stroke('.door-shape'),
            keyhole: fill('.keyhole'), tunnel: stroke('.tunnel'), card: fill('rect.card'),
            shape: svg.querySelector('.door').classList[2]};
}"""


def door_parts(svg: Any) -> dict[str, Any]:
    found = svg.evaluate(COLOURS)
    return {k: (v if k == "shape" else css_colour(v)) for k, v in found.items()}


def low_contrasts(parts: dict[str, Any]) -> list[str]:
    """Each pair of a door's neighbouring colours under 3:1, for any reader: the door on
    its tunnel, its ring on the card, the keyhole on the door."""
    pairs = [("door", "tunnel"), ("ring", "card"), ("keyhole", "door")]
    ratios = {(vision, one, other): contrast(seen(parts[one], vision),
                                             seen(parts[other], vision))
              for vision in VISIONS for one, other in pairs}
    return [f"{vision}: {one} on {other} {ratio:.2f}"
            for (vision, one, other), ratio in ratios.items() if ratio < NON_TEXT]


def test_the_rules_pages_doors_differ_by_shape_for_every_colour_vision(
        browser: Any, live_server: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=4)
    page.goto(f"{live_server.url}/rules/saboteur2/")
    blue = page.locator(".card-catalog li > svg[aria-label='Blue door E-W']")
    green = page.locator(".card-catalog li > svg[aria-label='Green door E-W']")
    colours = {name: door_parts(svg) for name, svg in (("blue", blue), ("green", green))}
    assert colours["blue"]["shape"] == "door-round"
    assert colours["green"]["shape"] == "door-diamond"
    assert low_contrasts(colours["blue"]) == [] and low_contrasts(colours["green"]) == []
    # The hues alone: apart for a reader with normal vision, close to each other in grey.
    hue = {v: delta_e(seen(colours["blue"]["door"], v), seen(colours["green"]["door"], v))
           for v in VISIONS}
    assert hue["normal"] > 20
    pictures = {}
    for name, svg in (("blue", blue), ("green", green)):
        pictures[name] = png_pixels(svg.screenshot())
    apart = {v: differing_share(pictures["blue"], pictures["green"], v) for v in VISIONS}
    assert min(apart.values()) >= SHAPE_APART, (apart, hue)
    # Every door card of the deck shows its colour's shape.
    for label, shape in (("Blue door", "round"), ("Green door", "diamond")):
        cards = page.locator(f".card-catalog li > svg[aria-label^='{label}']")
        assert cards.count() == 3
        assert cards.locator(f".door.door-{shape}").count() == 3
    page.close()


def doors_in_hand_and_maze() -> Game:
    """A Saboteur 2 game whose first player holds four door cards, with a green and a
    blue door in the maze."""
    players = [game_setup.PlayerSpec(name=n, email=f"{n.lower()}@example.org")
               for n in ("Ann", "Bob", "Cy")]
    game = game_setup.create_game(name="Doors", players=players, seed=3, ruleset="saboteur2",
                                  start=True, invite=False).game
    put_opening_state(game, engine_position(
        seats=3, turn=0, ruleset="saboteur2", hands={0: ["p49", "p51", "p52", "p54"]},
        board={(1, 0): ("p50", False), (2, 0): ("p53", False)}))
    game.save()
    return game


def test_the_doors_in_the_hand_and_the_maze_keep_their_shapes_and_contrast(
        browser: Any, live_server: Any) -> None:
    game = doors_in_hand_and_maze()
    for width, options in ((1280, {"viewport": {"width": 1280, "height": 900}}),
                           (390, PHONE)):
        page = browser.new_page(**options)
        page.goto(seat_url(live_server, game, 0))
        maze = page.locator("svg.maze")
        assert maze.locator(".cell[data-cell='1,0'] .door.door-green.door-diamond").count() == 1
        assert maze.locator(".cell[data-cell='2,0'] .door.door-blue.door-round").count() == 1
        hand = page.locator("#hand svg.card-svg:has(.door)")
        assert hand.count() == 4
        for svg in [*hand.all(), maze]:
            parts = door_parts(svg)
            assert low_contrasts(parts) == []
        assert page.locator("#hand svg.card-svg .door-round").count() == 2
        assert page.locator("#hand svg.card-svg .door-diamond").count() == 2
        shot(page.locator("#maze"), f"doors-maze-{width}.png")
        shot(page.locator("#hand"), f"doors-hand-{width}.png")
        page.close()
