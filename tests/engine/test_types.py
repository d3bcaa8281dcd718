"""The TypedDicts in games.engine.types name every key a view, a log event and a move
really has."""

from __future__ import annotations

from typing import get_type_hints

from games import engine
from games.engine.types import (
    CardView,
    GoalView,
    LogEvent,
    ModeratorView,
    Move,
    PlayerView,
    RoundResult,
    SeatView,
)


def _played(ruleset: str, seats: int, seed: int) -> tuple[engine.State, list[Move]]:
    state = engine.new_game(seats, seed, ruleset)
    listed: list[Move] = []
    while not state.finished:
        moves = engine.legal_moves(state)
        listed += moves
        state = engine.apply(state, moves[0])
    return state, listed


def _keys(typed: type) -> set[str]:
    return set(get_type_hints(typed))


def _check_view(shown: SeatView, named: type = SeatView) -> None:
    assert set(shown) <= _keys(named)
    assert {k for c in shown["hand"] for k in c} <= _keys(CardView)
    assert {k for p in shown["board"] for k in p["card"]} <= _keys(CardView)
    assert {k for p in shown["players"] for k in p} <= _keys(PlayerView)
    assert {k for p in shown["players"] for c in p["in_front"] for k in c} <= _keys(CardView)
    assert {k for g in shown["goals"] for k in g} <= _keys(GoalView)
    for result in shown["round_results"]:
        assert set(result) == _keys(RoundResult)
    log = shown["log"]
    assert log is not None
    assert {k for e in log for k in e} <= _keys(LogEvent)
    assert all("type" in e for e in log)


def test_every_view_key_is_named_by_the_typed_views() -> None:
    for ruleset, seats in (("base", 4), ("saboteur2", 5)):
        state, _ = _played(ruleset, seats, 3)
        for seat in (None, 0):
            _check_view(engine.view(state, seat))


def test_the_moderator_view_is_named_too() -> None:
    for ruleset, seats in (("base", 4), ("saboteur2", 5)):
        state, _ = _played(ruleset, seats, 3)
        truth = engine.moderator_view(state)
        _check_view(truth, ModeratorView)
        assert {k for hand in truth["hands"] for c in hand for k in c} <= _keys(CardView)


def test_a_view_without_its_log_leaves_it_none() -> None:
    state = engine.new_game(4, 1)
    shown = engine.view(state, 0, log=False)
    assert shown["log"] is None
    assert {k: v for k, v in shown.items() if k != "log"} == {
        k: v for k, v in engine.view(state, 0).items() if k != "log"}


def test_every_listed_move_is_a_move() -> None:
    for ruleset, seats in (("base", 4), ("saboteur2", 5)):
        _, listed = _played(ruleset, seats, 3)
        assert {k for m in listed for k in m} <= _keys(Move)
        assert all(isinstance(m["type"], str) for m in listed)
