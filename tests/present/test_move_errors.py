"""Engine move errors reach players in their language, with the engine's facts filled in."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import engine
from games.seatview.core.move_errors import EXPLAIN, explain
from tests.engine.helpers import position


def refused(state: engine.State, move: dict) -> engine.IllegalMove:
    with pytest.raises(engine.IllegalMove) as caught:
        engine.apply(state, move)
    return caught.value


def test_edges_mismatch_names_the_side() -> None:
    state = position(hands={0: ["p01"]})  # a N-S tunnel east of the start
    error = refused(state, {"type": "place", "card": "p01", "x": 1, "y": 0, "rotated": False})
    assert explain(error, "base") == ("That card has a wall on its west side, but the card to "
                                      "its west has a tunnel there.")


def test_card_names_are_filled_in() -> None:
    state = position(hands={0: ["a10"]})
    error = refused(state, {"type": "action", "card": "a10", "target": 1, "tool": "cart"})
    assert explain(error, "base") == "The card Repair pickaxe does not act on that tool."


def test_every_engine_code_has_a_sentence() -> None:
    import pathlib
    import re

    source = "".join(p.read_text() for p in pathlib.Path("games/engine").rglob("*.py"))
    codes = set(re.findall(r'(?:IllegalMove|MalformedMove)\(\s*"([a-z_]+)"', source))
    assert codes and codes <= set(EXPLAIN), codes - set(EXPLAIN)


def test_unknown_code_falls_back_to_the_engine_message() -> None:
    error = engine.IllegalMove("brand_new_rule", "Something new is wrong.")
    assert explain(error, "base") == "Something new is wrong."


def test_explanations_are_translatable() -> None:
    error = engine.IllegalMove("not_adjacent", "A card must be placed next to a card already "
                               "in the maze.")
    with translation.override("en"):
        assert explain(error, "base") == error.message
