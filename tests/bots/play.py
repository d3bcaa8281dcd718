"""Seeded games where bots (and, for variety, random legal movers) take the turns."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.bots import choose_move
from games.engine import Move, SeatView, State, apply, legal_moves, new_game, rules_for, view

Check = Callable[[State, SeatView, list[Move], Move], None]


def bot_turn(state: State, seed: int) -> tuple[SeatView, list[Move], Move]:
    """The seat to act's view, its legal moves and the bot's choice."""
    moves = legal_moves(state)
    seen = view(state, state.actor)
    return seen, moves, choose_move(seen, moves, seed)


def play(seats: int, seed: int, ruleset: str, random_share: float = 0.0,
         rounds: int = 3, check: Check | None = None) -> tuple[State, int]:
    """Play to the end (or `rounds` rounds); returns the state and the bot turns asked."""
    rng = random.Random(seed)
    state = new_game(seats, seed, ruleset)
    asked = turns = 0
    while not state.finished and state.round <= rounds:
        turns += 1
        assert turns < 2000, "the game does not end"
        if rng.random() < random_share:
            state = apply(state, rng.choice(legal_moves(state)))
            continue
        seen, moves, move = bot_turn(state, seed * 1000 + turns)
        if check is not None:
            check(state, seen, moves, move)
        state = apply(state, move)
        asked += 1
    return state, asked


def random_position(ruleset: str, seed: int, seats: int, steps: int) -> State | None:
    """The game `seed` after up to `steps` random legal moves (seats clamped to what the
    ruleset allows), or None when it ended on the way."""
    rules = rules_for(ruleset)
    seats = min(max(seats, rules.min_seats), rules.max_seats)
    rng = random.Random(seed)
    state = new_game(seats, seed, ruleset)
    for _ in range(steps):
        if state.finished:
            return None
        state = apply(state, rng.choice(legal_moves(state)))
    return None if state.finished else state

