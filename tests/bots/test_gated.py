"""The "gated" strong algorithm: the team look-ahead, but another move than the normal
level's only for a lead that is clear of the noise between its sampled worlds."""

from __future__ import annotations

import importlib
import math
from typing import Any

import pytest

from games.bots.strong import Budget
from games.bots.strong.lookahead import clear_lead
from games.engine import Move, SeatView, legal_moves, view

from .test_strong import positions

STRONG = importlib.import_module("games.bots.strong")
LOOKAHEAD = importlib.import_module("games.bots.strong.lookahead")
DIGGERS = ("gold-digger", "blue-digger", "green-digger")
NO_NET = Budget(seconds=math.inf)  # the work budget alone: a loaded machine changes nothing


def test_a_lead_counts_only_when_it_is_clear_of_the_worlds_spread() -> None:
    steady = ([0.6, 0.7, 0.5, 0.6], [0.5, 0.6, 0.4, 0.5])  # 0.1 ahead in every world
    swinging = ([0.9, 0.0, 0.8, 0.1], [0.1, 0.7, 0.0, 0.8])  # ahead by 0.05 on average
    assert clear_lead(0.1, *steady, errors=1.0)
    assert not clear_lead(0.05, *swinging, errors=1.0)
    assert clear_lead(0.05, *swinging, errors=0.1)
    assert not clear_lead(-0.1, *steady, errors=0.0)  # behind is never a lead
    assert not clear_lead(0.1, [0.6], [0.5], errors=1.0)  # one world says nothing


def lines_with_a_lead(lead: float, swing: float) -> Any:
    """A stand-in for the look-ahead's lines (lookahead.reply): the second candidate
    `lead` ahead of the others in the mean, its difference swinging by `swing` from one
    world to the next; the candidates come in the same order in every world."""
    order: dict[int, list[Any]] = {}  # per world (its seed): the candidates, in order

    def reply(world: Any, move: Any, seed: int, *args: Any, **kwargs: Any) -> float:
        seen = order.setdefault(seed, [])
        if move not in seen:
            seen.append(move)
        if seen.index(move) != 1:
            return 0.5
        sign = 1 if list(order).index(seed) % 2 else -1
        return 0.5 + lead + sign * swing

    return reply


def a_digger_choosing(ruleset: str) -> tuple[SeatView, list[Move]]:
    """The first position of seeded games where a digger has three candidates or more."""
    for state in positions(ruleset, 6, seed=40):
        actor = state.actor
        if state.phase == "play" and actor is not None and state.roles[actor] in DIGGERS:
            seen, moves = view(state, actor), legal_moves(state)
            if len(LOOKAHEAD.candidates(seen, moves)) > 2:
                return seen, moves
    raise AssertionError("no digger with a choice")


@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_the_gate_plays_another_move_than_the_first_only_for_a_clear_lead(
        ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the look-ahead compares candidates: a lead of 0.2 that swings by 0.6 between
    worlds moves the team algorithm off its first candidate but not the gated one; the
    same lead in every world moves both."""
    seen, moves = a_digger_choosing(ruleset)
    with monkeypatch.context() as first_only:
        first_only.setattr(LOOKAHEAD, "NORMAL_BONUS", 1e9)
        first = STRONG.choose_strong(seen, moves, 7, algorithm="team", budget=NO_NET)
    monkeypatch.setattr(LOOKAHEAD, "reply", lines_with_a_lead(0.2, 0.6))
    noisy = STRONG.choose_strong(seen, moves, 7, algorithm="team", budget=NO_NET)
    assert noisy != first
    assert STRONG.choose_strong(seen, moves, 7, algorithm="gated", budget=NO_NET) == first
    monkeypatch.setattr(LOOKAHEAD, "reply", lines_with_a_lead(0.2, 0.0))
    assert STRONG.choose_strong(seen, moves, 7, algorithm="gated", budget=NO_NET) == noisy
