"""Golden positions: fixed seeds and move sequences with their exact legal-move counts.

If a rule changes, these numbers change: update them only with a rule change in RULES.md.
The first position is checked by hand in `test_opening_counts_by_hand`.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import State, apply, legal_moves, new_game


def position(seats: int, seed: int, steps: int, ruleset: str = "base") -> State:
    """A fixed walk: mostly placements, picked by a fixed arithmetic rule."""
    state = new_game(seats, seed, ruleset)
    for i in range(steps):
        moves = legal_moves(state)
        places = [m for m in moves if m["type"] == "place"]
        pool = places if places and i % 4 else moves
        state = apply(state, pool[(i * 7919 + seed) % len(pool)])
    return state


GOLDEN = [
    ((3, 1, 0), 4, {"map": 3, "pass": 6, "place": 20}),
    ((4, 2, 10), 12, {"action": 12, "pass": 6, "place": 2, "rockfall": 8}),
    ((5, 3, 25), 29, {"map": 6, "pass": 6, "place": 36}),
    ((6, 4, 40), 29, {"pass": 5}),
    ((7, 5, 55), 25, {"action": 1, "map": 3, "pass": 2}),
    ((8, 6, 30), 16, {"map": 3, "pass": 4, "place": 4}),
    ((9, 7, 20), 21, {"action": 10, "pass": 4, "place": 8}),
    ((10, 8, 45), 30, {"action": 10, "map": 3, "pass": 3}),
]


@pytest.mark.parametrize(("args", "board_size", "counts"), GOLDEN)
def test_golden_legal_move_counts(args: tuple[int, int, int], board_size: int,
                                  counts: dict[str, int]) -> None:
    state = position(*args)
    assert len(state.board) == board_size
    assert dict(Counter(m["type"] for m in legal_moves(state))) == counts


def test_opening_counts_by_hand() -> None:
    """3 seats, seed 1: hand = repair pickaxe/cart, T E-S-W, cross, map, curve N-E, dead end E.

    Only the four cells around the start are joined to it. Cross: 4 cells x 2 turns = 8.
    T E-S-W (turned N-E-W): east/west cells take both turns, north and south one each = 6.
    Curve N-E (turned S-W): one turn per cell = 4. Dead end E (turned W): east and west
    cells only = 2. Maps: 3 face-down goals. Passes: 6 cards. Nothing to repair.
    """
    state = new_game(3, 1)
    assert sorted(state.hands[0]) == sorted(["a17", "p24", "p28", "a25", "p08", "p33"])
    per_card = Counter(m["card"] for m in legal_moves(state) if m["type"] == "place")
    assert per_card == {"p28": 8, "p24": 6, "p08": 4, "p33": 2}


GOLDEN_S2 = [
    ((2, 1, 0), 4, {"action": 2, "pass": 41, "place": 10}),
    ((4, 2, 12), 14, {"action": 4, "free": 15, "pass": 41}),
    ((6, 3, 30), 20, {"action": 5, "pass": 41, "place": 9, "rockfall": 16}),
    ((9, 4, 45), 37, {"action": 2, "pass": 41}),
    ((12, 5, 60), 48, {"action": 1, "pass": 7, "place": 22}),
]


@pytest.mark.parametrize(("args", "board_size", "counts"), GOLDEN_S2)
def test_golden_legal_move_counts_saboteur2(args: tuple[int, int, int], board_size: int,
                                            counts: dict[str, int]) -> None:
    state = position(*args, ruleset="saboteur2")
    assert len(state.board) == board_size
    assert dict(Counter(m["type"] for m in legal_moves(state))) == counts


def test_saboteur2_opening_counts_by_hand() -> None:
    """2 seats, seed 1: hand = free at last, rockfall, dead end N-E-S, swap your hand,
    theft, curve N-E. Nobody is trapped and the maze has no path card: those two are idle.
    Dead end N-E-S (turned S-W-N): east 1, west 1, north 2, south 2 = 6; curve N-E = 4.
    Swap your hand: the other seat only; theft: in front of yourself. Passes: 1 to 3 of
    6 cards = 6 + 15 + 20 = 41.
    """
    state = new_game(2, 1, "saboteur2")
    moves = legal_moves(state)
    per_card = Counter(m["card"] for m in moves if m["type"] == "place")
    assert per_card == {"p38": 6, "p08": 4}
    assert [m for m in moves if m["type"] == "action"] == [
        {"type": "action", "card": "a36", "target": 1},
        {"type": "action", "card": "a29", "target": 0}]
    assert sum(1 for m in moves if m["type"] == "pass") == 41
