"""Drawing and describing views: SVG tunnels, sentences, move labels, forms for new types."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games import engine
from games.seatview.core import describe, drawing
from games.seatview.core import move_forms as choices

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}


def path_card(segments: list[list[str]], **extra: Any) -> dict[str, Any]:
    exits = [e for e in "NESW" if any(e in s for s in segments)]
    return {"id": "p99", "kind": "path", "name": "x", "exits": exits, "segments": segments,
            "dead_end": all(len(s) == 1 for s in segments), "goal": None, **extra}


def test_a_dead_end_is_drawn_as_stubs_ending_in_rock() -> None:
    svg = str(drawing.card_svg(path_card([["N"], ["E"], ["S"]])))
    assert svg.count('class="rock"') == 3 and 'class="tunnel-hub"' not in svg
    open_card = str(drawing.card_svg(path_card([["N", "E", "S"]])))
    assert 'class="rock"' not in open_card and open_card.count('class="tunnel"') == 3


def test_a_bridge_keeps_its_tunnels_apart() -> None:
    svg = str(drawing.card_svg(path_card([["N", "S"], ["E", "W"]])))
    assert svg.count('class="gap"') == 2  # the second tunnel crosses over the first
    curves = str(drawing.card_svg(path_card([["N", "E"], ["S", "W"]])))
    hubs = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', curves)
    assert len(set(hubs)) == 2  # two separate hubs, not one crossing


def test_the_maze_view_box_covers_cards_and_target_cells() -> None:
    view = engine.view(engine.new_game(3, 1), 0)
    svg = str(drawing.board_svg(view, [(-3, 5)]))
    x, y, w, h = map(float, re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"',
                                      svg).groups())  # type: ignore[union-attr]
    assert x <= -300 and y <= -200 and x + w >= 900 and y + h >= 600
    assert 'data-cell="-3,5"' in svg and svg.count('class="card back"') == 3


def test_a_mapped_goal_shows_what_the_map_showed_only_to_that_seat() -> None:
    state = engine.new_game(3, 1)
    state.known_goals[0].append(1)
    mine = str(drawing.board_svg(engine.view(state, 0)))
    theirs = str(drawing.board_svg(engine.view(state, 1)))
    assert "mapped-mark" in mine and "mapped-mark" not in theirs
    known = "gold" if state.goal_kinds[1] == "gold" else "stone"
    assert f'class="mapped {known}">{known}</text>' in mine


@pytest.mark.parametrize(("event", "sentence"), [
    ({"type": "round_start", "round": 2, "first": 1}, "Round 2 begins; Bob plays first."),
    # A straight tunnel turned round is the same card: the log does not say "turned".
    ({"type": "place", "seat": 0, "card": "p01", "name": "Tunnel N-S", "x": 1, "y": 0,
      "rotated": True}, "Ann placed Tunnel N-S at (1, 0)."),
    ({"type": "place", "seat": 0, "card": "p08", "name": "Curve N-E", "x": 1, "y": 0,
      "rotated": True}, "Ann placed Curve N-E at (1, 0), turned round."),
    ({"type": "break", "seat": 2, "card": "a01", "target": 0, "tool": "cart"},
     "Cy broke the cart of Ann."),
    ({"type": "repair", "seat": 1, "card": "a10", "target": 1, "tool": "pickaxe"},
     "Bob repaired their own pickaxe."),
    ({"type": "map", "seat": 1, "card": "a30", "goal": 2}, "Bob looked at the bottom goal "
     "with a map."),
    ({"type": "map", "seat": 1, "card": "a30", "goal": 0, "result": "gold"},
     "Bob looked at the top goal with a map. It showed: gold."),
    ({"type": "pass", "seat": 1, "count": 1}, "Bob passed, discarding 1 card face down."),
    ({"type": "pass", "seat": 1, "count": 0}, "Bob passed without a card to discard."),
    ({"type": "gold_pick", "seat": 0}, "Ann took a gold card."),
    ({"type": "gold_pick", "seat": 0, "card": "gold-01", "value": 3},
     "Ann took a gold card worth 3 nuggets."),
    ({"type": "round_end", "round": 1, "reason": "exhausted", "finder": None,
      "winners": "saboteurs", "roles": ["saboteur", "gold-digger", "gold-digger"]},
     "Round 1 is over: the cards ran out. Winners: the saboteurs. "
     "Roles: Ann: saboteur, Bob: gold-digger, Cy: gold-digger."),
    ({"type": "earthquake", "seat": 2, "target": 0}, "Cy: earthquake"),  # a future type
])
def test_log_events_read_as_sentences(event: engine.LogEvent, sentence: str) -> None:
    with translation.override("en"):
        assert describe.event_sentence(event, NAMES, "base") == sentence


def test_unknown_move_types_fall_back_to_a_generic_choice() -> None:
    view = engine.view(engine.new_game(3, 1), 0)
    card = view["hand"][0]["id"]
    legal: list[engine.Move] = [{"type": "swap_hats", "target": 2},
                                {"type": "discard_two", "cards": [card, view["hand"][1]["id"]]},
                                {"type": "pass", "card": card}]
    forms = choices.build(view, legal, NAMES)
    assert [c.label for c in forms.other] == ["swap_hats (target: 2)",
                                              f"discard_two (cards: ['{card}', "
                                              f"'{view['hand'][1]['id']}'])"]
    panel = next(p for p in forms.hand if p.card["id"] == card)
    assert [g.label for g in panel.groups] == ["Pass"]


def test_gold_picks_are_offered_with_their_value() -> None:
    view: engine.SeatView = {"board": [], "hand": [],
                             "gold_offer": [{"id": "gold-20", "value": 2}]}
    forms = choices.build(view, [{"type": "pick_gold", "card": "gold-20"}], NAMES)
    assert [c.label for c in forms.other] == ["take a gold card worth 2 nuggets"]
    assert forms.other[0].value == '{"card":"gold-20","type":"pick_gold"}'
