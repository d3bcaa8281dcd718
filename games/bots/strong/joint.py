"""The strong bot's joint belief: a posterior over whole hypotheses (every other seat's
role, the dwarf cards set aside being what is left of the pool, x the goal that holds
the gold), instead of one independent probability per seat (belief.py).

A hypothesis' prior is the number of ways the round's dwarf cards (less the bot's own)
deal it; goals the seat has seen (turned, or under its own map) narrow the gold. Each
turn in the round's public log multiplies every hypothesis by the likelihood of the
move under the actor's role (the learned evidence model, evidence.py, which also reads
how far the move brought the tunnel toward the gold as the actor could believe it, so
the factor depends on the hypothesis' gold; without the model, the self-play table of
belief.py), softened by TEMPERATURE; a move aimed at another seat also by how likely that target
is for the actor's role against the average (the pair table), and since both roles are
in the hypothesis that factor is exact, not an estimate. A door or the seat's own
inspection rules hypotheses out; a digger mapping a second goal after a first is
unlikely when the first held the gold (the normal digger stops mapping once it knows).

No evidence from oneself: the seat's own moves never weigh a hypothesis (it knows why
it made them), and a move aimed at the seat is weighed by what the aimer could know
about it, the public's reading of the seat's moves so far (`public_roles`), never by
the seat's true role.

The log is first reduced to `Evidence`: the epochs between Swaps your hats (within one
epoch every seat holds one dwarf card), per epoch and seat a factor per role and gold,
and the aimed moves as a factor per pair of roles; a hypothesis is then weighed in
one pass over the seats, not over the log.

Exact while small (at most MAX_HYPOTHESES). Past that (Saboteur 2 with 7 or more seats)
or after a Swap your hats (a role card changed hands: the hypothesis is then the whole
deal, the seats' first cards and the order of the cards set aside), the posterior is
estimated by importance sampling: SAMPLES deals drawn seat by seat from a proposal (the
factorised belief mixed with the dwarf cards left), each weighed by prior / proposal x
likelihood; equal hypotheses pool their weight. `Joint.evidence` keeps what is needed
to weigh any deal, so the mass of one hypothesis that was not drawn can still be
estimated (`Joint.estimate`: its weight against the sample's mean weight).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from games.engine.types import SeatView

from ..knowledge import round_log
from .belief import (
    SMOOTH,
    Belief,
    believe,
    catalogue_door,
    dwarf_pool,
    keyed,
    own_seat,
    pair_key,
    table,
)
from .digging import deltas, fixed_cells
from .evidence import factors as learned_factors

# Measured by bench/bot_temperature.py on self-play of the normal bots (the exponent
# 1/T that gives the true hypothesis the highest mean log posterior; the features of a
# seat's moves are not independent, so the naive product is overconfident at T = 1).
TEMPERATURE = 1.5
MAX_HYPOTHESES = 18000  # role assignments x gold places kept exactly; past it, sampled
SAMPLES = 1500  # deals drawn when the posterior is sampled (bench/README.md has why)
MIX = 0.25  # the proposal: the dwarf cards left x (MIX + the factorised belief's ratio)
REMAP = 0.2  # P(a digger maps another goal | the first one it mapped holds the gold)
GOALS = 3
LEARNED = True  # weigh moves by the learned model (evidence.py); False: the table
DIGGERS = frozenset({"gold-digger", "blue-digger", "green-digger", "boss"})

Factors = list[list[float]]  # [role][gold] or [actor role][target role]


@dataclass
class Evidence:
    """The seat's round log as the joint weighs it. `single[e][seat][role][gold]`: the
    product of the factors of `seat`'s moves in epoch `e` (rule-outs are zeros);
    `pairs[e]`: (actor, target, factor[actor role][target role]) per aimed move;
    `swaps`: the target of each Swap your hats, in order (epoch e + 1 starts after
    swap e)."""

    roles: list[str]
    golds: list[int]
    single: list[dict[int, Factors]] = field(default_factory=lambda: [{}])
    pairs: list[list[tuple[int, int, Factors]]] = field(default_factory=lambda: [[]])
    swaps: list[int] = field(default_factory=list)

    def factor(self, seat: int) -> Factors:
        """The current epoch's factors of `seat` (made on first use)."""
        epoch = self.single[-1]
        if seat not in epoch:
            epoch[seat] = [[1.0] * GOALS for _ in self.roles]
        return epoch[seat]

    def swap(self, target: int) -> None:
        self.swaps.append(target)
        self.single.append({})
        self.pairs.append([])

    def rule_out(self, seat: int, role: str) -> None:
        """`seat`'s role in this epoch is `role`."""
        for index, row in enumerate(self.factor(seat)):
            if self.roles[index] != role:
                row[:] = [0.0] * GOALS

    def weigh(self, first: tuple[int, ...], popped: tuple[int, ...], gold: int
              ) -> tuple[float, tuple[int, ...]]:
        """The likelihood of a deal (the seats' first roles, the role each swap gave
        its target) with the gold under `gold`, and the roles the seats hold now."""
        roles = first
        weight = 1.0
        for epoch, (single, pairs) in enumerate(zip(self.single, self.pairs, strict=True)):
            if epoch:
                changed = list(roles)
                changed[self.swaps[epoch - 1]] = popped[epoch - 1]
                roles = tuple(changed)
            for seat, factors in single.items():
                weight *= factors[roles[seat]][gold]
            for actor, target, factors in pairs:
                weight *= factors[roles[actor]][roles[target]]
            if weight == 0.0:
                break
        return weight, roles


@dataclass
class Joint:
    """`hyps[i]`: the role index of every seat (the bot's own included) and the gold's
    goal; `weights[i]`: its posterior probability (they sum to 1). `exact`: every
    hypothesis weighed (else sampled); `evidence`, `mean`: what `estimate` needs."""

    me: int
    roles: list[str]
    hyps: list[tuple[tuple[int, ...], int]]
    weights: list[float]
    exact: bool = True
    evidence: Evidence | None = None
    pool: list[str] = field(default_factory=list)
    mean: float = 0.0  # sampled: the mean importance weight (the normaliser's estimate)

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

    def mass(self, roles: list[str], gold: int) -> float:
        """The posterior weight of one hypothesis among those kept (0 if not drawn)."""
        key = (tuple(self.roles.index(r) if r in self.roles else -1 for r in roles), gold)
        return sum(w for h, w in zip(self.hyps, self.weights, strict=True) if h == key)

    def estimate(self, roles: list[str], gold: int) -> float:
        """The posterior probability of a deal with these roles (no swap this round)
        and gold: exact, or sampled: its prior x likelihood over the mean importance
        weight, whether it was drawn or not."""
        if self.exact or self.evidence is None or self.evidence.swaps:
            return self.mass(roles, gold)
        if gold not in self.evidence.golds or any(r not in self.roles for r in roles):
            return 0.0
        first = tuple(self.roles.index(r) for r in roles)
        left = Counter(self.pool)
        prior = 1.0
        for seat, role in enumerate(roles):
            if seat == self.me:
                continue
            prior *= left[role] / max(1, sum(left.values()))
            left[role] -= 1
        likelihood, _ = self.evidence.weigh(first, (), gold)
        return prior * likelihood / len(self.evidence.golds) / max(self.mean, 1e-300)


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


def role_names(view: SeatView) -> list[str]:
    return sorted(set(dwarf_pool(str(view["ruleset"]), int(view["seats"])))
                  | {str(view.get("role"))})


def public_prior(pool: list[str], roles: list[str]) -> dict[str, float]:
    return {r: pool.count(r) / max(1, len(pool)) for r in roles}


def evidence(view: SeatView, roles: list[str], power: float, *,
             learned: bool = True) -> Evidence:
    """The seat's round log reduced to factors (see `Evidence`). `learned`: weigh the
    others' moves by the learned evidence model (evidence.py) where one is committed,
    else by the likelihood table."""
    ruleset, seats, me = str(view["ruleset"]), int(view["seats"]), own_seat(view)
    likely = table().get(ruleset, {})
    single: Mapping[str, Mapping[str, float]] = likely.get("single", {})
    pairs: Mapping[str, Mapping[str, Mapping[str, float]]] = likely.get("pairs", {})
    out = Evidence(roles, gold_places(view))
    pool = dwarf_pool(ruleset, seats)
    public = public_prior(pool, roles)  # what anyone could believe about this seat
    mapped: dict[int, int] = {}
    maps: dict[int, list[int]] = {}
    log = round_log(view)
    moved = deltas(log, fixed_cells(view), ruleset) if learned else []
    for index, (event, key) in enumerate(keyed(log, seats, ruleset)):
        if key is None:
            continue
        actor = int(event["seat"])
        likelihood = [max(SMOOTH, single.get(r, {}).get(key, SMOOTH)) ** power
                      for r in roles]
        model = learned_factors(ruleset, roles, key, moved[index], maps.get(actor, [])) \
            if learned and actor != me else None
        if actor == me:
            public = _normalised({r: p * likelihood[i] for i, (r, p)
                                  in enumerate(public.items())})
        elif model is not None:
            for row, by_gold in zip(out.factor(actor), model, strict=True):
                row[:] = [v * f ** power for v, f in zip(row, by_gold, strict=True)]
        else:
            for row, f in zip(out.factor(actor), likelihood, strict=True):
                row[:] = [v * f for v in row]
            _remap(out, event, actor, mapped)
        if event.get("type") == "map" and isinstance(event.get("goal"), int):
            maps.setdefault(actor, []).append(int(event["goal"]))
        aimed = pair_key(event)
        if aimed is not None and actor != me:
            target = int(event["target"] or 0)
            ratio = _ratio(pairs.get(aimed, {}), roles, power)
            if ratio is not None and target == me:
                # The aimer knew of this seat only what the public log said.
                seen = [sum(public[t] * ratio[a][j] for j, t in enumerate(roles))
                        for a in range(len(roles))]
                factors = out.factor(actor)
                for index, row in enumerate(factors):
                    row[:] = [v * seen[index] for v in row]
            elif ratio is not None:
                out.pairs[-1].append((actor, target, ratio))
        kind = event.get("type")
        door = catalogue_door(event) if kind == "place" else None
        if door:
            out.rule_out(actor, f"{door}-digger")
        if kind == "inspection" and actor == me and "role" in event:
            out.rule_out(int(event["target"] or 0), str(event["role"]))
        if kind == "swap_hats" and isinstance(event.get("target"), int):
            target = int(event["target"] or 0)
            out.swap(target)
            if target == me:
                public = public_prior(pool, roles)
                if "role" in event:
                    out.rule_out(me, str(event["role"]))
    if not out.swaps:
        for seat, role in (view.get("inspected") or {}).items():
            out.rule_out(int(seat), str(role))
    if not any(e.get("type") == "swap_hats" and e.get("target") == me
               for e in round_log(view)):
        out.rule_out(me, str(view.get("role")))
    return out


def _normalised(probs: dict[str, float]) -> dict[str, float]:
    total = sum(probs.values())
    return {r: p / total for r, p in probs.items()} if total > 0 else probs


def _ratio(pair: Mapping[str, Mapping[str, float]], roles: list[str],
           power: float) -> Factors | None:
    """P(target's role | move, actor's role) against its average over actors: how much
    likelier this target is for this actor's role."""
    if not pair:
        return None
    average = pair.get("*", {})
    return [[(max(SMOOTH, pair.get(a, {}).get(t, SMOOTH))
              / max(SMOOTH, average.get(t, SMOOTH))) ** power for t in roles]
            for a in roles]


def _remap(out: Evidence, event: Mapping[str, object], actor: int,
           mapped: dict[int, int]) -> None:
    """A second map by a seat: a digger who found the gold under its first would not."""
    if event.get("type") != "map":
        return
    at = event.get("goal")
    goal = at if isinstance(at, int) else -1
    first = mapped.setdefault(actor, goal)
    if first == goal or not 0 <= first < GOALS:
        return
    for index, row in enumerate(out.factor(actor)):
        if out.roles[index] in DIGGERS:
            row[first] *= REMAP


def joint_belief(view: SeatView, temperature: float = TEMPERATURE,
                 limit: int = MAX_HYPOTHESES, seed: int = 0,
                 samples: int = SAMPLES, *, learned: bool | None = None) -> Joint | None:
    """The seat's joint posterior after the round's log: exact while it has at most
    `limit` hypotheses and no role changed hands, else sampled (`samples` deals drawn
    from `random.Random(seed)`); None when the log rules every hypothesis out (a view
    this model cannot explain: the caller falls back to the factorised belief)."""
    roles = role_names(view)
    found = evidence(view, roles, 1.0 / temperature,
                     learned=LEARNED if learned is None else learned)
    joint = None if found.swaps else exact(view, roles, found, limit)
    if joint is None:
        joint = sampled(view, roles, found, random.Random(seed), samples)
    return joint if joint is not None and normalise(joint) else None


def exact(view: SeatView, roles: list[str], found: Evidence, limit: int) -> Joint | None:
    """Every hypothesis weighed, or None past `limit`."""
    seats, me = int(view["seats"]), own_seat(view)
    pool = dwarf_pool(str(view["ruleset"]), seats)
    mine = str(view.get("role"))
    if mine in pool:
        pool.remove(mine)
    have = Counter(pool)
    golds = found.golds
    try:
        dealt = list(assignments([have[r] for r in roles], seats, me, roles.index(mine),
                                 max(1, limit // len(golds))))
    except ValueError:
        return None
    hyps, weights = [], []
    for assignment, ways in dealt:
        for gold in golds:
            likelihood, _ = found.weigh(assignment, (), gold)
            hyps.append((assignment, gold))
            weights.append(ways * likelihood)
    return Joint(me, roles, hyps, weights, exact=True, evidence=found, pool=pool)


def sampled(view: SeatView, roles: list[str], found: Evidence, rng: random.Random,
            samples: int) -> Joint | None:
    """The posterior estimated from `samples` deals drawn from a proposal: the seats'
    first roles seat by seat, most certain first, each from the cards left weighted by
    MIX + the factorised belief's ratio to the prior; the cards set aside in a uniform
    order (the prior's, so it cancels). Each deal weighs prior / proposal x likelihood."""
    seats, me = int(view["seats"]), own_seat(view)
    full = dwarf_pool(str(view["ruleset"]), seats)
    mine = str(view.get("role"))
    swapped_me = me in found.swaps
    pool = list(full)
    if not swapped_me and mine in pool:
        pool.remove(mine)
    factorised = believe(view)
    base = public_prior(full, roles)
    touched = set(found.swaps)
    ratios = {s: [1.0 if s in touched else factorised.p(s, r) / max(1e-9, base[r])
                  for r in roles] for s in range(seats)}
    order = sorted((s for s in range(seats) if s != me or swapped_me),
                   key=lambda s: (-max(ratios[s]), s))
    counts = Counter(pool)
    pooled: dict[tuple[tuple[int, ...], int], float] = {}
    total = 0.0
    for _ in range(samples):
        left = [counts[r] for r in roles]
        first = [roles.index(mine)] * seats
        odds = 1.0  # prior / proposal of the seats' first roles
        for seat in order:
            weights = [n * (MIX + ratios[seat][i]) for i, n in enumerate(left)]
            chosen = _pick(weights, rng)
            odds *= (left[chosen] / sum(left)) / (weights[chosen] / sum(weights))
            first[seat] = chosen
            left[chosen] -= 1
        aside = [i for i, n in enumerate(left) for _ in range(n)]
        rng.shuffle(aside)
        popped = tuple(aside[len(aside) - 1 - k] for k in range(min(len(found.swaps),
                                                                    len(aside))))
        if len(popped) < len(found.swaps):
            continue  # more swaps than cards set aside: a deal the round could not have
        for gold in found.golds:
            likelihood, now = found.weigh(tuple(first), popped, gold)
            weight = odds * likelihood / len(found.golds)
            if weight > 0:
                pooled[(now, gold)] = pooled.get((now, gold), 0.0) + weight
                total += weight
    if total <= 0:
        return None
    hyps = list(pooled)
    return Joint(me, roles, hyps, [pooled[h] for h in hyps], exact=False, evidence=found,
                 pool=pool, mean=total / samples)


def _pick(weights: list[float], rng: random.Random) -> int:
    pick = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        pick -= weight
        if pick <= 0 and weight > 0:
            return index
    return max(i for i, w in enumerate(weights) if w > 0)


def normalise(joint: Joint) -> bool:
    """Weights summing to 1; False when every hypothesis has weight 0."""
    total = sum(joint.weights)
    if total <= 0:
        return False
    joint.weights = [w / total for w in joint.weights]
    return True


def entropy(probs: list[float]) -> float:
    """In bits."""
    return -sum(p * math.log2(p) for p in probs if p > 0)
