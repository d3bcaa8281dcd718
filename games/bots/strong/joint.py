"""The strong bot's exact joint belief: a posterior over whole hypotheses (every other
seat's role, the dwarf cards set aside being what is left of the pool, x the goal that
holds the gold), instead of one independent probability per seat (belief.py).

A hypothesis' prior is the number of ways the round's dwarf cards (less the bot's own)
deal it; goals the seat has seen (turned, or under its own map) narrow the gold. Each
turn in the round's public log multiplies every hypothesis by the likelihood of the
move's feature under the actor's role (the normal bots' self-play table, belief.py),
softened by TEMPERATURE; a move aimed at another seat also by how likely that target
is for the actor's role against the average (the pair table), and since both roles are
in the hypothesis that factor is exact, not an estimate. A door or the seat's own
inspection rules hypotheses out; a digger mapping a second goal after a first is
unlikely when the first held the gold (the normal digger stops mapping once it knows).

Exact only while small: past MAX_HYPOTHESES (Saboteur 2 with more than a few seats),
or after Swap your hats (a role card changed hands, so a seat's role is no longer one
card of the deal), `joint` answers None and the factorised belief is used.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.types import SeatView

from ..knowledge import round_log
from .belief import SMOOTH, Belief, catalogue_door, dwarf_pool, keyed, own_seat, pair_key, table

# Measured by bench/bot_temperature.py on self-play of the normal bots (the exponent
# 1/T that gives the true hypothesis the highest mean log posterior; the features of a
# seat's moves are not independent, so the naive product is overconfident at T = 1).
TEMPERATURE = 1.5
MAX_HYPOTHESES = 18000  # role assignments x gold places; past it, the factorised belief
REMAP = 0.2  # P(a digger maps another goal | the first one it mapped holds the gold)
GOALS = 3


@dataclass
class Joint:
    """`hyps[i]`: the role index of every seat (the bot's own included) and the gold's
    goal; `weights[i]`: its posterior probability (they sum to 1)."""

    me: int
    roles: list[str]
    hyps: list[tuple[tuple[int, ...], int]]
    weights: list[float]

    def marginal(self, seat: int) -> dict[str, float]:
        out = dict.fromkeys(self.roles, 0.0)
        for (roles, _), w in zip(self.hyps, self.weights, strict=True):
            out[self.roles[roles[seat]]] += w
        return out

    def gold(self) -> list[float]:
        """P(the gold lies under goal g), g = 0, 1, 2."""
        out = [0.0] * GOALS
        for (_, gold), w in zip(self.hyps, self.weights, strict=True):
            out[gold] += w
        return out

    def belief(self) -> Belief:
        """The marginals, for what reads a per-seat belief; certain where one role has
        all the mass."""
        probs = [self.marginal(s) for s in range(len(self.hyps[0][0]))]
        certain = {s for s, p in enumerate(probs) if max(p.values()) >= 1.0 - 1e-12}
        return Belief(self.me, list(self.roles), probs, certain | {self.me})

    def sample(self, rng: random.Random) -> tuple[list[str], int]:
        """One hypothesis drawn from the posterior: every seat's role and the gold."""
        pick = rng.random()
        for (roles, gold), w in zip(self.hyps, self.weights, strict=True):
            pick -= w
            if pick <= 0:
                return [self.roles[r] for r in roles], gold
        roles, gold = self.hyps[-1]
        return [self.roles[r] for r in roles], gold


def assignments(counts: list[int], seats: int, me: int, mine: int,
                limit: int) -> Iterator[tuple[tuple[int, ...], float]]:
    """Every role assignment of the seats other than `me` that the pool `counts` can
    deal, with the number of ways it is dealt; stops (ValueError) past `limit`."""
    made = 0
    roles = [0] * seats
    roles[me] = mine

    def deal(seat: int, weight: float) -> Iterator[tuple[tuple[int, ...], float]]:
        nonlocal made
        if seat == seats:
            made += 1
            if made > limit:
                raise ValueError("too many hypotheses")
            yield tuple(roles), weight
            return
        if seat == me:
            yield from deal(seat + 1, weight)
            return
        for role, left in enumerate(counts):
            if left:
                counts[role] -= 1
                roles[seat] = role
                yield from deal(seat + 1, weight * left)
                counts[role] += 1

    yield from deal(0, 1.0)


def gold_places(view: SeatView) -> list[int]:
    """The goals that may hold the gold as the seat sees them."""
    status = {int(g["goal"]): str(g["status"]) for g in view["goals"]}
    sure = [g for g, s in status.items() if s == "gold"]
    if sure:
        return sure
    return [g for g, s in sorted(status.items()) if s != "stone"] or sorted(status)


def prior(view: SeatView, limit: int = MAX_HYPOTHESES) -> Joint | None:
    """The joint prior, or None when it has more than `limit` hypotheses."""
    seats, me = int(view["seats"]), own_seat(view)
    pool = dwarf_pool(str(view["ruleset"]), seats)
    mine = str(view.get("role"))
    roles = sorted(set(pool) | {mine})
    if mine in pool:
        pool.remove(mine)
    have = Counter(pool)
    golds = gold_places(view)
    try:
        dealt = list(assignments([have[r] for r in roles], seats, me, roles.index(mine),
                                 max(1, limit // len(golds))))
    except ValueError:
        return None
    hyps = [(h, g) for h, _ in dealt for g in golds]
    weights = [w for _, w in dealt for _ in golds]
    joint = Joint(me, roles, hyps, weights)
    normalise(joint)
    return joint


def normalise(joint: Joint) -> bool:
    """Weights summing to 1; False when the log ruled every hypothesis out (a view
    this model cannot explain: the caller falls back to the factorised belief)."""
    total = sum(joint.weights)
    if total <= 0:
        return False
    joint.weights = [w / total for w in joint.weights]
    return True


def joint_belief(view: SeatView, temperature: float = TEMPERATURE,
                 limit: int = MAX_HYPOTHESES) -> Joint | None:
    """The seat's exact joint posterior after the round's log, or None where it is not
    kept exactly (too many hypotheses, or a role card swapped this round)."""
    log = round_log(view)
    if any(e.get("type") == "swap_hats" for e in log):
        return None
    joint = prior(view, limit)
    if joint is None:
        return None
    ruleset, seats = str(view["ruleset"]), int(view["seats"])
    likely = table().get(ruleset, {})
    power = 1.0 / temperature
    mapped: dict[int, int] = {}
    for event, key in keyed(log, seats, ruleset):
        if key is None:
            continue
        actor = int(event["seat"])
        if actor != joint.me:
            _observe(joint, actor, key, likely.get("single", {}), power)
            _remap(joint, event, actor, mapped)
        aimed = pair_key(event)
        if aimed is not None:
            _aimed(joint, actor, int(event["target"] or 0),
                   likely.get("pairs", {}).get(aimed, {}), power)
        door = catalogue_door(event) if event.get("type") == "place" else None
        if door:
            _rule_out(joint, actor, f"{door}-digger")
        if not normalise(joint):
            return None
    for seat, role in (view.get("inspected") or {}).items():
        _rule_out(joint, int(seat), str(role))
    return joint if normalise(joint) else None


def _observe(joint: Joint, actor: int, key: str,
             single: Mapping[str, Mapping[str, float]], power: float) -> None:
    factor = [max(SMOOTH, single.get(r, {}).get(key, SMOOTH)) ** power for r in joint.roles]
    joint.weights = [w * factor[roles[actor]]
                     for (roles, _), w in zip(joint.hyps, joint.weights, strict=True)]


def _aimed(joint: Joint, actor: int, target: int,
           pair: Mapping[str, Mapping[str, float]], power: float) -> None:
    """P(target's role | move, actor's role) against its average over actors: how much
    likelier this target is for this actor's role."""
    if not pair or target == actor:
        return
    average = pair.get("*", {})
    ratio = [[(max(SMOOTH, pair.get(a, {}).get(t, SMOOTH))
               / max(SMOOTH, average.get(t, SMOOTH))) ** power for t in joint.roles]
             for a in joint.roles]
    joint.weights = [w * ratio[roles[actor]][roles[target]]
                     for (roles, _), w in zip(joint.hyps, joint.weights, strict=True)]


def _remap(joint: Joint, event: Mapping[str, Any], actor: int,
           mapped: dict[int, int]) -> None:
    """A second map by a seat: a digger who found the gold under its first would not."""
    if event.get("type") != "map":
        return
    goal = int(event.get("goal", -1))
    first = mapped.setdefault(actor, goal)
    if first == goal:
        return
    diggers = {i for i, r in enumerate(joint.roles) if r.endswith("digger") or r == "boss"}
    joint.weights = [w * (REMAP if gold == first and roles[actor] in diggers else 1.0)
                     for (roles, gold), w in zip(joint.hyps, joint.weights, strict=True)]


def _rule_out(joint: Joint, seat: int, role: str) -> None:
    """The seat's role is known: every other hypothesis has probability zero."""
    if role not in joint.roles:
        return
    index = joint.roles.index(role)
    joint.weights = [w if roles[seat] == index else 0.0
                     for (roles, _), w in zip(joint.hyps, joint.weights, strict=True)]


def entropy(probs: list[float]) -> float:
    """In bits."""
    return -sum(p * math.log2(p) for p in probs if p > 0)
