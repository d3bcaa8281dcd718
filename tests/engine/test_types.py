"""The TypedDicts in games.engine.types name every key a view really has."""

from __future__ import annotations

from typing import get_type_hints

from games import engine
from games.engine.types import CardView, LogEvent, RoundResult, SeatView


def _played(ruleset: str, seats: int, seed: int) -> engine.State:
    state = engine.new_game(seats, seed, ruleset)
    while not state.finished:
        state = engine.apply(state, engine.legal_moves(state)[0])
    return state


def test_every_view_key_is_named_by_the_typed_views() -> None:
    for ruleset, seats in (("base", 4), ("saboteur2", 5)):
        state = _played(ruleset, seats, 3)
        for seat in (None, 0):
            shown = engine.typed_view(state, seat)
            assert shown == engine.view(state, seat)
            assert set(shown) <= set(get_type_hints(SeatView))
            assert {k for c in shown["hand"] for k in c} <= set(get_type_hints(CardView))
            assert {k for p in shown["board"] for k in p["card"]} <= set(
                get_type_hints(CardView))
            for result in shown["round_results"]:
                assert set(result) == set(get_type_hints(RoundResult))
            assert {"type"} <= {k for e in shown["log"] for k in e}
            assert set(get_type_hints(LogEvent)) >= {"type", "round", "seat"}
