"""Saboteur 2 drawn and described: SVG cards, card names, log sentences, move labels,
the email maze and the timeout move (no database needed)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import engine
from games.moves.core.timeout_rule import timeout_move
from games.seatview.core import describe, drawing, maze_drawing, maze_s2, words
from games.seatview.core import move_forms as choices
from tests.colour_vision import VISIONS, contrast, seen

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}
RULES = engine.rules_for("saboteur2")


def card(card_id: str, *, rotated: bool = False) -> engine.CardView:
    spec = RULES.cards[card_id]
    return engine.card_json(spec, rotated)


def s2_card(label: str) -> str:
    """The id of the first expansion path card whose engine name starts with `label`."""
    return next(c.id for c in RULES.cards.values() if c is not None and c.kind == "path"
                and c.id >= "p41" and c.name.startswith(label))


# ---- drawing --------------------------------------------------------------------------------


def test_a_door_is_drawn_in_its_colour_across_its_tunnel() -> None:
    blue = str(drawing.card_svg(card(s2_card("Blue door N-S"))))
    green = str(drawing.card_svg(card(s2_card("Green door E-S"))))
    assert 'class="door door-blue door-round"' in blue and "door-green" not in blue
    assert 'class="door door-green door-diamond"' in green
    # On the hub of its tunnel (the middle of the card), over the tunnel itself; its
    # shape tells its colour too: a blue door is round, a green one a diamond.
    assert re.search(r'class="door door-blue door-round"><circle cx="50" cy="50" r="17" '
                     r'class="door-shape"/>', blue)
    assert re.search(r'class="door door-green door-diamond"><polygon points="50,30 70,50 '
                     r'50,70 30,50" class="door-shape"/>', green)
    assert blue.index('class="tunnel"') < blue.index('class="door')
    plain = str(drawing.card_svg(card("p01")))
    assert "door" not in plain and "ladder" not in plain and "crystal" not in plain


def test_a_door_with_a_stub_keeps_the_stub_a_dead_end() -> None:
    svg = str(drawing.card_svg(card(s2_card("Green door N-S + stub"))))
    assert svg.count('class="rock"') == 1 and 'class="door door-green door-diamond"' in svg


def test_a_ladder_is_drawn_and_its_single_exit_is_not_a_dead_end() -> None:
    svg = str(drawing.card_svg(card(s2_card("Ladder S"))))
    assert '<g class="ladder">' in svg and svg.count('class="ladder-rung"') == 3
    assert 'class="rock"' not in svg and svg.count('class="tunnel"') == 1
    curve = str(drawing.card_svg(card(s2_card("Ladder E-S"))))
    assert curve.count('class="tunnel"') == 2 and '<g class="ladder">' in curve


def test_crystals_are_small_gems_one_per_crystal() -> None:
    svg = str(drawing.card_svg(card(s2_card("Crossroads (crystal)"))))
    assert svg.count('class="crystal"') == 1
    assert 'class="crystal"' not in str(drawing.card_svg(card("p28")))


def test_bridges_and_double_curves_keep_their_tunnels_apart() -> None:
    bridge = str(drawing.card_svg(card(s2_card("Bridge"))))
    assert bridge.count('class="gap"') == 2
    double = str(drawing.card_svg(card(s2_card("Double curve"), rotated=True)))
    hubs = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="12" class="tunnel-hub"', double)
    assert len(set(hubs)) == 2


def test_the_maze_draws_placed_expansion_cards_turned_round() -> None:
    state = engine.new_game(3, 1, "saboteur2")
    state.board[(1, 0)] = (s2_card("Blue door S-W"), True)  # turned: N-E
    state.board[(0, 1)] = (s2_card("Ladder N-E"), False)
    view = engine.view(state, 0)
    svg = str(drawing.board_svg(view))
    assert 'class="door door-blue door-round"' in svg and '<g class="ladder">' in svg
    # A screen reader's words for each cell: the card (a door's colour, a ladder), its
    # exits, and whether it joins the start (a ladder always does).
    assert 'aria-label="(1, 0): Blue door N-E; exits north, east"' in svg
    assert 'aria-label="(0, 1): Ladder N-E; exits north, east; joins the start"' in svg


def test_hand_cards_of_the_expansion_are_drawn() -> None:
    view: engine.SeatView = {"board": [], "players": [], "seat": 0,
                             "hand": [card(s2_card("Green door E-W")), card("a28")]}
    built = choices.build(view, [], NAMES)
    door, theft = built.hand
    assert door.svg is not None and "door-green" in str(door.svg)
    assert theft.svg is None and theft.name == "Theft"


# ---- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("label", "rotated", "name"), [
    ("Bridge", False, "Bridge"),
    ("Double curve", True, "Double curve N-W / E-S"),
    ("Ladder E-S", True, "Ladder N-W"),
    ("Green door N-S + stub", True, "Green door N-S + stub W"),
    ("Blue door S-W", False, "Blue door S-W"),
    ("Tunnel N-S + stub E, W", False, "Tunnel N-S + stubs E, W"),
    ("Dead end W (crystal)", False, "Dead end W (1 crystal)"),
    ("T-junction E-S-W + stub N (crystal)", True, "T-junction N-E-W + stub S (1 crystal)"),
])
def test_expansion_cards_are_named_from_their_structure(label: str, *, rotated: bool,
                                                        name: str) -> None:
    with translation.override("en"):
        assert describe.card_name(card(s2_card(label), rotated=rotated)) == name


def test_every_card_and_role_has_a_translatable_name() -> None:
    for spec in RULES.cards.values():  # goal positions and gold ids map to None
        if spec is not None and spec.kind in ("path", "action"):
            assert describe.card_name(engine.card_json(spec))
    for action in ("theft", "hands_off", "swap_hand", "inspection", "swap_hats", "trapped",
                   "free_at_last"):
        assert action in words.ACTIONS
    with translation.override("en"):
        assert [describe.role_name(r) for r in ("blue-digger", "green-digger", "boss",
                                                "profiteer", "geologist", "saboteur")] == [
            "blue gold-digger", "green gold-digger", "boss", "profiteer", "geologist",
            "saboteur"]
        assert [describe.team_name(w) for w in ("blue", "green", "blue+green", "saboteurs",
                                                "nobody")] == [
            "the blue gold-diggers", "the green gold-diggers",
            "the blue and the green gold-diggers", "the saboteurs", "nobody"]


# ---- log sentences --------------------------------------------------------------------------

SENTENCES: list[tuple[engine.LogEvent, int | None, str]] = [
    ({"type": "theft", "seat": 0, "card": "a28", "target": 0}, None,
     "Ann put a theft card in front of themselves."),
    ({"type": "hands_off", "seat": 1, "card": "a32", "target": 0}, None,
     "Bob played hands off: the theft card of Ann is gone."),
    ({"type": "swap_hand", "seat": 1, "card": "a35", "target": 2}, 0,
     "Bob swapped hands with Cy."),
    ({"type": "swap_hand", "seat": 1, "card": "a35", "target": 2}, 2,
     "Bob swapped hands with you."),  # the reader is the one whose hand was taken
    ({"type": "inspection", "seat": 0, "card": "a37", "target": 1, "role": "saboteur"}, 0,
     "You inspected Bob: a saboteur."),
    ({"type": "inspection", "seat": 0, "card": "a37", "target": 1}, 2,
     "Ann inspected the dwarf card of Bob."),
    ({"type": "inspection", "seat": 0, "card": "a37", "target": 1}, 1,
     "Ann inspected your dwarf card."),
    ({"type": "trapped", "seat": 2, "card": "a41", "target": 0}, 0, "Cy trapped you."),
    ({"type": "steal", "seat": 2, "target": 0}, 0, "Cy stole a nugget from you."),
    ({"type": "inspection", "seat": 0, "card": "a37", "target": 1, "role": "boss"}, None,
     "Ann inspected Bob: the boss."),  # the moderators' log
    ({"type": "swap_hats", "seat": 0, "card": "a39", "target": 1, "role": "geologist"}, 1,
     "Ann made you swap hats: you are now a geologist."),
    ({"type": "swap_hats", "seat": 1, "card": "a39", "target": 1, "role": "profiteer"}, 1,
     "You swapped your own hat: you are now the profiteer."),
    ({"type": "swap_hats", "seat": 0, "card": "a39", "target": 1}, 2,
     "Ann made Bob swap hats for a dwarf card set aside."),
    ({"type": "trapped", "seat": 2, "card": "a41", "target": 0}, None, "Cy trapped Ann."),
    ({"type": "free_at_last", "seat": 2, "card": "a44", "target": 2}, None,
     "Cy freed themselves."),
    ({"type": "free", "seat": 1, "count": 2, "removed": "a41"}, 0,
     "Bob discarded 2 cards face down to remove Trapped from in front of them."),
    ({"type": "free", "seat": 1, "count": 2, "removed": "a01", "cards": ["a28", "p01"]}, 1,
     "Bob discarded Theft, Tunnel N-S to remove Broken pickaxe from in front of them."),
    ({"type": "pass", "seat": 0, "count": 3}, 1,
     "Ann passed, discarding 3 cards face down."),
    ({"type": "pass", "seat": 0, "count": 2, "cards": ["a37", "p45"]}, 0,
     "Ann passed, discarding Inspection, Ladder S."),
    ({"type": "steal", "seat": 2, "target": 0}, None, "Cy stole a nugget from Ann."),
    ({"type": "steal", "seat": 2, "target": None}, None,
     "Cy had nobody to steal a nugget from."),
    ({"type": "payout", "seat": 1, "value": 3, "why": "win"}, 1,
     "Bob was paid 3 nuggets for winning the round."),
    ({"type": "payout", "seat": 1, "value": 1, "why": "crystals"}, 1,
     "Bob was paid 1 nugget for the crystals in the maze."),
    ({"type": "payout", "seat": 1}, 0, "Bob was paid gold."),
    ({"type": "round_end", "round": 2, "reason": "gold", "finder": 1, "winners": "blue+green",
      "winning_seats": [0, 1], "roles": ["blue-digger", "green-digger", "saboteur"]}, None,
     "Round 2 is over: Bob reached the gold. Winners: the blue and the green gold-diggers "
     "(Ann, Bob). Roles: Ann: blue gold-digger, Bob: green gold-digger, Cy: saboteur."),
    ({"type": "round_end", "round": 1, "reason": "gold", "finder": 2, "winners": "nobody",
      "winning_seats": [], "roles": ["boss", "profiteer", "geologist"]}, None,
     "Round 1 is over: Cy reached the gold. Winners: nobody (no one is paid). "
     "Roles: Ann: boss, Bob: profiteer, Cy: geologist."),
]


@pytest.mark.parametrize(("event", "viewer", "sentence"), SENTENCES)
def test_expansion_events_read_as_sentences(event: engine.LogEvent, viewer: int | None,
                                            sentence: str) -> None:
    with translation.override("en"):
        assert describe.event_sentence(event, NAMES, "saboteur2", viewer) == sentence


# ---- move labels and forms ------------------------------------------------------------------


def view_with(hand: list[str], in_front: list[str] | None = None) -> engine.SeatView:
    return {"board": [], "seat": 0, "hand": [card(c) for c in hand],
            "players": [{"seat": 0, "in_front": [card(c) for c in in_front or []]}]}


def test_expansion_action_cards_offer_a_player_per_card() -> None:
    view = view_with(["a28", "a37", "a39", "a41"])
    legal: list[engine.Move] = [{"type": "action", "card": "a28", "target": 0},
             {"type": "action", "card": "a37", "target": 1},
             {"type": "action", "card": "a39", "target": 0},
             {"type": "action", "card": "a39", "target": 2},
             {"type": "action", "card": "a41", "target": 0}]
    with translation.override("en"):
        built = choices.build(view, legal, NAMES)
    labels = {p.card["id"]: [c.label for g in p.groups for c in g.choices] for p in built.hand}
    assert labels == {"a28": ["put it in front of yourself"],
                      "a37": ["look at the dwarf card of Bob"],
                      "a39": ["swap your own hat", "make Cy swap hats"],
                      "a41": ["trap yourself"]}
    assert built.other == [] and built.discard is None


def test_passes_and_frees_become_checkboxes_when_every_combination_is_legal() -> None:
    hand = ["p01", "a28", "a37", "p45"]
    state_legal: list[engine.Move] = [{"type": "pass", "cards": list(c)}
                                      for c in _subsets(hand, 1, 3)]
    frees: list[engine.Move] = [{"type": "free", "cards": list(c), "remove": r}
                                for c in _subsets(hand, 2, 2) for r in ("a01", "a41")]
    built = choices.build(view_with(hand, ["a01", "a41"]), state_legal + frees, NAMES)
    assert built.discard is not None and built.discard.pass_range == (1, 3)
    assert [c.value for c in built.discard.removable] == ["a01", "a41"]
    assert [c.label for c in built.discard.removable] == ["Broken pickaxe", "Trapped"]
    assert built.radios == [] and all(c.composed for c in built.other)
    assert len(built.other) == len(state_legal) + len(frees)  # a moderator still sees all
    assert all(p.discardable for p in built.hand)


def test_a_pass_list_that_is_not_every_combination_stays_radio_buttons() -> None:
    hand = ["p01", "a28"]
    legal: list[engine.Move] = [{"type": "pass", "cards": ["p01"]}]  # not "any 1 card"
    built = choices.build(view_with(hand), legal, NAMES)
    assert built.discard is None and [c.label for c in built.radios] == [
        "discard Tunnel N-S and pass"]


def test_an_empty_hand_passes_with_one_radio_button_and_thieves_choose_whom() -> None:
    built = choices.build(view_with([]), [{"type": "pass", "cards": []}], NAMES)
    assert built.discard is None and [c.label for c in built.radios] == [
        "pass (no card to discard)"]
    thief = choices.build(view_with(["p01"]), [{"type": "steal", "target": 1},
                                               {"type": "steal", "target": 2}], NAMES)
    assert [c.label for c in thief.radios] == ["steal a nugget from Bob",
                                               "steal a nugget from Cy"]


def _subsets(items: list[str], low: int, high: int) -> list[tuple[str, ...]]:
    from itertools import combinations

    return [c for size in range(low, high + 1) for c in combinations(items, size)]


# ---- emails and timeouts --------------------------------------------------------------------


def test_the_email_maze_shows_doors_ladders_bridges_and_crystals() -> None:
    door = maze_drawing.card_grid(card(s2_card("Blue door N-S")))
    assert door[1][1] == maze_s2.DOOR["blue"] and door[0][1] == maze_drawing.TUNNEL
    # The door's shape on its hub, as the seat page draws it: not told by hue alone.
    blue = str(maze_drawing.card_html(card(s2_card("Blue door N-S"))))
    green = str(maze_drawing.card_html(card(s2_card("Green door E-S"))))
    assert 'color:#fff;text-align:center">●</td>' in blue and "◆" not in blue
    assert 'color:#fff;text-align:center">◆</td>' in green and "●" not in green
    ladder = maze_drawing.card_grid(card(s2_card("Ladder S")))
    assert ladder[1][1] == maze_s2.LADDER and ladder[2][1] == maze_drawing.TUNNEL
    ladder_html = str(maze_drawing.card_html(card(s2_card("Ladder"))))
    assert 'color:#fff;text-align:center">H</td>' in ladder_html
    bridge = maze_drawing.card_grid(card(s2_card("Bridge")))
    assert bridge[1][1] == maze_s2.BRIDGE
    double = maze_drawing.card_grid(card(s2_card("Double curve")))  # N-W and E-S
    assert double[1][1] == maze_drawing.ROCK and double[0][0] == double[2][2] == maze_drawing.TUNNEL
    crystal = maze_drawing.card_grid(card(s2_card("Crossroads (crystal)")))
    assert maze_s2.CRYSTAL in (crystal[0][2], crystal[2][0])
    chars = [maze_drawing.card_char(card(s2_card(label))) for label in (
        "Ladder S", "Blue door", "Green door", "Bridge", "Double curve", "Tunnel N-S + stub E")]
    assert chars == ["H", "b", "g", "╬", "╳", "│"]


def test_a_timeout_in_the_expansion_passes_the_last_card_or_steals() -> None:
    state = engine.new_game(3, 4, "saboteur2")
    view = engine.view(state, 0)
    move = timeout_move(view, engine.legal_moves(state))
    assert move == {"type": "pass", "cards": [view["hand"][-1]["id"]]}
    empty: engine.SeatView = {**view, "hand": []}
    assert timeout_move(empty, [{"type": "pass", "cards": []}]) == {
        "type": "pass", "cards": []}
    theft: engine.SeatView = {**view, "phase": "theft"}
    steals: list[engine.Move] = [{"type": "steal", "target": 1}, {"type": "steal", "target": 2}]
    assert timeout_move(theft, steals) == steals[0]


def test_the_email_maze_doors_keep_3_to_1_for_every_colour_vision() -> None:
    """The door's hub against the tunnel's sand, and its white mark against the door,
    at WCAG's 3:1 for graphics, for readers with any colour vision (Machado 2009)."""
    def rgb(hex_colour: str) -> tuple[float, float, float]:
        return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))

    low = [(colour, vision, round(ratio, 2))
           for colour, hub in maze_s2.DOOR.items() for vision in VISIONS
           for ratio in (contrast(seen(rgb(hub), vision), seen(rgb(maze_drawing.TUNNEL), vision)),
                         contrast(seen(rgb(hub), vision), seen(rgb("#ffffff"), vision)))
           if ratio < 3]
    assert low == []
