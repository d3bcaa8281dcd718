"""The strong level's budget: the work it may do is counted, not timed, so the same
inputs give the same move; the wall clock is only a net, past which the normal level's
move is played."""

from __future__ import annotations

import functools
import importlib
import itertools
import random
from typing import Any

import pytest

from games.bots import Budget, choose_move
from games.engine import State, legal_moves, view

from .test_strong import positions

SEARCH = importlib.import_module("games.bots.strong.search")
LOOKAHEAD = importlib.import_module("games.bots.strong.lookahead")
STRONG = importlib.import_module("games.bots.strong")


def searched(ruleset: str, count: int, seed: int) -> list[State]:
    """Play positions where the strong bot may search (its turn in the play phase)."""
    rng = random.Random(seed)
    found = [s for s in positions(ruleset, games=1, seed=seed)
             if s.phase == "play" and len(legal_moves(s)) > 1]
    return rng.sample(found, min(count, len(found)))


def test_past_the_wall_clock_the_strong_bot_plays_the_normal_move() -> None:
    checked = 0
    for ruleset in ("base", "saboteur2"):
        for state in searched(ruleset, 4, seed=11):
            seen, moves = view(state, state.actor), legal_moves(state)
            ticks = itertools.count(step=10.0)  # every look at the clock: 10 s later
            late = Budget(seconds=1.5, clock=functools.partial(next, ticks))
            assert choose_move(seen, moves, 3, level="strong", budget=late) \
                is choose_move(seen, moves, 3, level="normal")
            checked += 1
    assert checked == 8


def test_the_work_budget_decides_not_the_clock() -> None:
    """A slow clock (all the time in the world) and a fast one give the same move: only
    the counted work ends the search."""
    for state in searched("saboteur2", 3, seed=12):
        seen, moves = view(state, state.actor), legal_moves(state)
        frozen = Budget(work=600, seconds=1.0, clock=lambda: 0.0)
        roomy = Budget(work=600, seconds=1e9)
        assert choose_move(seen, moves, 5, level="strong", budget=frozen) \
            == choose_move(seen, moves, 5, level="strong", budget=roomy)


@pytest.mark.parametrize(("algorithm", "module", "name"),
                         [("rollout", SEARCH, "rollout"), ("joint", LOOKAHEAD, "reply")])
def test_no_world_is_started_past_the_work_budget(monkeypatch: pytest.MonkeyPatch,
                                                  algorithm: str, module: Any,
                                                  name: str) -> None:
    """With no work to spend, the search plays its one first world (every candidate once)."""
    rollouts: list[int] = []
    real = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> float:
        rollouts.append(1)
        return float(real(*args, **kwargs))

    monkeypatch.setattr(module, name, counted)
    monkeypatch.setattr(STRONG, "ALGORITHM", algorithm)
    searches = 0
    for state in searched("base", 6, seed=13):
        seen, moves = view(state, state.actor), legal_moves(state)
        rollouts.clear()
        choose_move(seen, moves, 7, level="strong", budget=Budget(work=1))
        assert len(rollouts) <= SEARCH.CANDIDATES
        searches += bool(rollouts)
    assert searches >= 2
