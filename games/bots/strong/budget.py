"""How long the strong bot may think: a deterministic work budget, and the wall clock
only as a safety net.

The search counts its work in rollout steps and the legal moves they weigh: a step
(a view, the normal bot's reading of the log, apply) costs about as much as scoring
STEP_WORK legal moves, and every step scores each legal move of the seat to act (a
12-seat Saboteur 2 maze has ten times the moves of an early base one). Fitted on the
time of 129 strong moves on the shared 2-core machine: 0.75 ms a step, 13 µs a move.
Worlds are played in turn; once the work passes `Budget.work` no further world is
started, so the same inputs always do the same work and give the same move.

`Budget.seconds` is the net for a machine far slower (or busier) than the one the work
budget was measured on: past it the search stops (`OutOfTime`) and the strong bot plays
the normal level's move. Tests inject a budget with a clock of their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

STEP_WORK = 50  # a rollout step's own cost, in legal moves weighed
# The work of one decision, started worlds finish (bench/README.md "Bot strength" has the
# time per move it gives): the heaviest decisions did about 33,000 before it.
WORK = 20000
SECONDS = 1.5  # the net: past this, the normal level's move


class OutOfTime(Exception):
    """The wall clock passed the budget's seconds: the search is abandoned."""


@dataclass(frozen=True)
class Budget:
    work: int = WORK
    seconds: float = SECONDS
    clock: Callable[[], float] = time.perf_counter


@dataclass
class Meter:
    """The work done so far in one decision, against its budget."""

    budget: Budget
    spent: int = 0
    deadline: float = field(init=False)

    def __post_init__(self) -> None:
        self.deadline = self.budget.clock() + self.budget.seconds

    def charge(self, work: int) -> None:
        """Count `work`; OutOfTime when the wall clock is past the net."""
        self.spent += work
        if self.budget.clock() > self.deadline:
            raise OutOfTime()

    @property
    def exhausted(self) -> bool:
        return self.spent >= self.budget.work
