"""The strong bot level. It plays the "team" algorithm: the joint posterior over every
seat's role and the gold's place (joint.py: exact on small tables, sampled on large
ones and after a Swap your hats; from the round's public log, weighed by a model learned
from self-play, evidence.py, never by the bot's own moves), worlds sampled from it
(worlds.py) and a heuristic look-ahead over them (lookahead.py, signals.py), in which a
digger plays for its side (team.py: "team"; "joint" is the same without it). The
first algorithm, "rollout" (a per-seat belief, belief.py, and a lap of normal-bot
rollouts, search.py), is kept to compare with (bench/bots.py --duplicate --algorithm rollout),
as is "gated": the team algorithm leaving its first candidate only for a lead clear of the
noise between its worlds (lookahead.clear_lead; bench/README.md has its duplicate play).

    choose_strong(view, legal_moves, seed) -> one of legal_moves

Like the normal level it reads only its seat's view, and the same inputs always give
the same move (all sampling comes from `random.Random(seed)`, the work is bounded in
engine steps and legal moves weighed, budget.py). The wall clock is a safety net only:
a search past `Budget.seconds` is dropped for the normal level's move.
"""

from __future__ import annotations

import random

from games.engine.types import Move, SeatView

from ..normal import choose_normal
from .belief import Belief, believe
from .budget import Budget, Meter, OutOfTime
from .joint import joint_belief
from .lookahead import plan
from .search import search

__all__ = ["ALGORITHMS", "Belief", "Budget", "believe", "choose_strong"]

# "rollout": the factorised belief and a lap of normal-bot rollouts (search.py);
# "joint": the joint belief and heuristic look-ahead (joint.py, lookahead.py);
# "team": "joint" with team play for diggers (team.py: the side's knowledge of the gold
# and its tools, by the belief's teammates); "gated": "team" leaving the normal move only
# for a candidate whose lead is at least LEAD standard errors (lookahead.clear_lead).
ALGORITHMS = ("rollout", "joint", "team", "gated")
ALGORITHM = "team"  # what the strong level plays (bench/README.md "Bot strength" has why)
LEAD = 1.0

# Roles whose round is not won or lost by the gold (the geologist counts crystals, the
# profiteer always wins): the normal bot's scoring already says what they want.
UNSEARCHED = frozenset({"geologist", "profiteer"})


def choose_strong(view: SeatView, legal_moves: list[Move], seed: int,
                  budget: Budget | None = None, algorithm: str | None = None) -> Move:
    """The strong bot's move: always an element of `legal_moves`. `budget`: how much it
    may think (Budget() when None); `algorithm`: one of ALGORITHMS (ALGORITHM when
    None; the duplicate bench compares them)."""
    meter = Meter(budget or Budget())
    normal = choose_normal(view, legal_moves, seed)
    if view.get("phase") != "play" or len(legal_moves) == 1 \
            or str(view.get("role")) in UNSEARCHED:
        return normal
    try:
        chosen = algorithm or ALGORITHM
        if chosen in ("joint", "team", "gated"):
            joint = joint_belief(view, seed=seed)
            belief = joint.belief() if joint is not None else believe(view)
            found = plan(view, legal_moves, joint, belief, random.Random(seed), meter,
                         team=chosen != "joint", lead=LEAD if chosen == "gated" else 0.0)
        else:
            found = search(view, legal_moves, believe(view), random.Random(seed), meter)
    except OutOfTime:
        return normal
    if found is None:
        return normal
    return next(m for m in legal_moves if m is found)
