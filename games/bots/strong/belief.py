"""What the strong bot believes about every other seat's role: a probability per role,
from the dwarf cards of the table (the prior) and the round's public log (the evidence).

Each move in the log is reduced to a *feature* (what kind of move, on what, how early in
the round) and each seat's belief is multiplied by P(feature | role), the likelihoods
measured by self-play of the normal bots (bench/bot_likelihoods.py writes
likelihoods.json). Moves on another seat (breaking, mending, trapping, freeing) also
carry who they aimed at: P(target's role | move, actor's role) moves both beliefs.
A role the seat knows for sure (a door only its team may place, its own inspection,
its own hat) is certain. Only the view is read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from games.engine import rules_for
from games.engine.types import SeatView

from ..knowledge import catalogue, round_log, spec_dead_end

TABLE = Path(__file__).with_name("likelihoods.json")
# Moves that take a turn, by the event type they log.
TURN_EVENTS = frozenset({"place", "rockfall", "break", "repair", "map", "pass", "theft",
                         "hands_off", "swap_hand", "inspection", "swap_hats", "trapped",
                         "free_at_last", "free"})
# Moves on another seat whose target tells something (the pair table).
AIMED = frozenset({"break", "repair", "trapped", "free_at_last"})
SMOOTH = 1e-3  # floor of a likelihood: no single move rules a role out
PAIR_WEIGHT = 0.5  # the target's factor is an estimate (it assumes the others' roles)


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    """The committed likelihood table (empty before bench/bot_likelihoods.py has run)."""
    if not TABLE.exists():
        return {}
    data: dict[str, Any] = json.loads(TABLE.read_text())
    return data


def lap(index: int, seats: int) -> int:
    """How early in the round a move came: 0 the first lap of turns, 1 the second, 2 later."""
    return min(2, index // max(1, seats))


def feature(event: Mapping[str, Any], index: int, seats: int, ruleset: str) -> str | None:
    """The kind of a move in the log, as the likelihood table counts it; None if the
    event is not a turn of a seat."""
    kind = event.get("type")
    actor = event.get("seat")
    if kind not in TURN_EVENTS or not isinstance(actor, int):
        return None
    cards = catalogue(ruleset)
    name = str(kind)
    if kind == "place":
        spec = cards.get(str(event.get("card")))
        if spec is not None and any(s.door for s in spec.segments):
            name = "place_door"
        else:
            dead = spec is not None and spec_dead_end(spec)
            x, y = int(event.get("x", 0)), int(event.get("y", 0))
            where = "near" if x >= 5 else "off" if abs(y) >= 3 or x < 0 else "way"
            name = f"place_{'dead' if dead else 'path'}_{where}"
    elif kind == "rockfall":
        removed = cards.get(str(event.get("removed")))
        name = "rockfall_dead" if removed is not None and spec_dead_end(removed) \
            else "rockfall_path"
    elif kind in AIMED or kind == "repair":
        name = f"{kind}_{'self' if event.get('target') == actor else 'other'}"
    elif kind == "pass":
        name = f"pass{min(3, int(event.get('count', 1) or 1))}"
    return f"{name}:{lap(index, seats)}"


def keyed(log: Iterable[Mapping[str, Any]], seats: int, ruleset: str
          ) -> Iterator[tuple[Mapping[str, Any], str | None]]:
    """Each event of a round's log with its feature (None: not a seat's turn), the turns
    counted as the likelihood table counts them (bench/bot_likelihoods.py)."""
    turns = 0
    for event in log:
        key = feature(event, turns, seats, ruleset)
        turns += key is not None
        yield event, key


def pair_key(event: Mapping[str, Any]) -> str | None:
    """The key of the pair table for a move aimed at another seat, else None."""
    kind = event.get("type")
    if kind in AIMED and isinstance(event.get("target"), int) \
            and event.get("target") != event.get("seat"):
        return str(kind)
    return None


def dwarf_pool(ruleset: str, seats: int) -> list[str]:
    """Every dwarf card of the round (the seats' and those set aside)."""
    return list(rules_for(ruleset).dwarf_cards(seats))


@dataclass
class Belief:
    """`probs[seat][role]`: this seat's belief; `certain`: seats whose role it knows."""

    me: int
    roles: list[str]
    probs: list[dict[str, float]]
    certain: set[int] = field(default_factory=set)

    def p(self, seat: int, role: str) -> float:
        return self.probs[seat].get(role, 0.0)


def own_seat(view: SeatView) -> int:
    """The bot's own seat (a bot is never a spectator)."""
    seat = view["seat"]
    if seat is None:
        raise ValueError("a bot plays a seat: a spectator's view has none")
    return seat


def prior(view: SeatView) -> Belief:
    seats, me, ruleset = int(view["seats"]), own_seat(view), str(view["ruleset"])
    pool = dwarf_pool(ruleset, seats)
    mine = str(view.get("role"))
    if mine in pool:
        pool.remove(mine)
    roles = sorted(set(pool) | {mine})
    base = {r: pool.count(r) / max(1, len(pool)) for r in roles}
    probs = [dict(base) for _ in range(seats)]
    probs[me] = {r: float(r == mine) for r in roles}
    return Belief(me, roles, probs, {me})


def believe(view: SeatView) -> Belief:
    """The belief of the view's seat about every seat's role, after the round's log."""
    belief = prior(view)
    seats, ruleset = belief.probs.__len__(), str(view["ruleset"])
    likely = table().get(ruleset, {})
    single: dict[str, dict[str, float]] = likely.get("single", {})
    pairs: dict[str, dict[str, dict[str, float]]] = likely.get("pairs", {})
    pool = dwarf_pool(ruleset, seats)
    public = {r: pool.count(r) / max(1, len(pool)) for r in belief.roles}
    for event, key in keyed(round_log(view), seats, ruleset):
        if key is None:
            _certain_from(event, belief)
            continue
        actor = int(event["seat"])
        likelihood = {r: single.get(r, {}).get(key, SMOOTH) for r in belief.roles}
        if actor == belief.me:
            # No evidence from oneself; but the others read this seat's moves.
            public = _normalised({r: p * max(SMOOTH, likelihood.get(r, SMOOTH))
                                  for r, p in public.items()})
        elif actor not in belief.certain:
            _update(belief, actor, likelihood)
        aimed = pair_key(event)
        if aimed is not None and actor != belief.me:
            _pair_update(belief, actor, int(event["target"] or 0), pairs.get(aimed, {}),
                         public)
        if event.get("type") == "swap_hats" and event.get("target") == belief.me:
            public = {r: pool.count(r) / max(1, len(pool)) for r in belief.roles}
        _certain_from(event, belief)
    for seat, role in (view.get("inspected") or {}).items():
        _know(belief, int(seat), str(role))
    return belief


def _certain_from(event: Mapping[str, Any], belief: Belief) -> None:
    """Doors tell the placer's team; swap your hats makes a known role unknown again."""
    kind, actor = event.get("type"), event.get("seat")
    if kind == "place" and isinstance(actor, int):
        spec = catalogue_door(event)
        if spec:
            _know(belief, actor, f"{spec}-digger")
    elif kind == "swap_hats" and isinstance(event.get("target"), int):
        target = int(event["target"])
        if target == belief.me and "role" in event:
            _know(belief, target, str(event["role"]))
        elif target != belief.me:
            belief.certain.discard(target)
            belief.probs[target] = {r: 1.0 / len(belief.roles) for r in belief.roles}


def catalogue_door(event: Mapping[str, Any]) -> str | None:
    card = str(event.get("card"))
    for ruleset in ("saboteur2",):
        spec = catalogue(ruleset).get(card)
        if spec is not None:
            return next((s.door for s in spec.segments if s.door), None)
    return None


def _know(belief: Belief, seat: int, role: str) -> None:
    if role not in belief.roles:
        belief.roles.append(role)
    belief.probs[seat] = {r: float(r == role) for r in belief.roles}
    belief.certain.add(seat)


def _update(belief: Belief, seat: int, likelihood: dict[str, float]) -> None:
    if seat in belief.certain:
        return
    probs = belief.probs[seat]
    new = {r: probs.get(r, 0.0) * max(SMOOTH, likelihood.get(r, SMOOTH))
           for r in belief.roles}
    total = sum(new.values())
    if total > 0:
        belief.probs[seat] = {r: v / total for r, v in new.items()}


def _normalised(probs: dict[str, float]) -> dict[str, float]:
    total = sum(probs.values())
    return {r: p / total for r, p in probs.items()} if total > 0 else probs


def _pair_update(belief: Belief, actor: int, target: int,
                 pair: dict[str, dict[str, float]], public: dict[str, float]) -> None:
    """P(target's role | move, actor's role) against its average over actors. A move
    aimed at this seat is read against what the aimer could know of it (`public`: the
    public log's reading of its moves), not its true role."""
    if not pair:
        return
    average = pair.get("*", {})
    ratio = {a: {t: pair.get(a, {}).get(t, SMOOTH) / max(SMOOTH, average.get(t, SMOOTH))
                 for t in belief.roles} for a in belief.roles}
    before_actor = dict(belief.probs[actor])
    before_target = dict(public) if target == belief.me else dict(belief.probs[target])
    _update(belief, actor, {a: sum(before_target.get(t, 0.0) * ratio[a][t]
                                   for t in belief.roles) ** PAIR_WEIGHT
                            for a in belief.roles})
    _update(belief, target, {t: sum(before_actor.get(a, 0.0) * ratio[a][t]
                                    for a in belief.roles) ** PAIR_WEIGHT
                             for t in belief.roles})
