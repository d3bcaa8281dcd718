"""Every bot move is one of the legal moves, and all-bot games end, at every seat count."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import choose_move
from games.engine import Move, SeatView, State, apply, legal_moves, new_game, rules_for, view

from .play import play, random_position

RULESETS = ["base", "saboteur2"]


def is_listed(state: State, seen: SeatView, moves: list[Move],
              move: Move) -> None:
    assert any(move is m for m in moves), move  # the very element, not a look-alike


@pytest.mark.slow  # whole games at every seat count
@pytest.mark.parametrize("ruleset", RULESETS)
def test_all_bot_games_of_every_seat_count_finish_with_legal_moves(ruleset: str) -> None:
    rules = rules_for(ruleset)
    asked = 0
    for seats in range(rules.min_seats, rules.max_seats + 1):
        state, count = play(seats, seed=seats, ruleset=ruleset, check=is_listed)
        assert state.finished and state.phase == "finished"
        assert len([e for e in state.log if e["type"] == "round_end"]) == 3
        asked += count
    assert asked > 1000  # thousands of positions over both rulesets


@pytest.mark.parametrize("ruleset", RULESETS)
def test_bot_moves_are_legal_among_random_players(ruleset: str) -> None:
    """Random movers make boards no bot would (rockfalls, odd dead ends, swaps)."""
    rules = rules_for(ruleset)
    asked = 0
    for seed in range(6):
        seats = rules.min_seats + seed * 2 % (rules.max_seats - rules.min_seats + 1)
        _, count = play(seats, seed=100 + seed, ruleset=ruleset, random_share=0.6,
                        check=is_listed)
        asked += count
    assert asked > 200


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32),
       seats=st.integers(2, 12), steps=st.integers(0, 150), bot_seed=st.integers(0, 2**63))
def test_any_position_gets_a_legal_move(ruleset: str, seed: int, seats: int, steps: int,
                                        bot_seed: int) -> None:
    state = random_position(ruleset, seed, seats, steps)
    if state is None:
        return
    moves = legal_moves(state)
    move = choose_move(view(state, state.actor), moves, bot_seed)
    assert move in moves
    apply(state, move)  # and the engine takes it


def test_no_legal_moves_is_a_clear_error() -> None:
    state = new_game(3, 1)
    with pytest.raises(ValueError, match="no legal move"):
        choose_move(view(state, 0), [], 1)
