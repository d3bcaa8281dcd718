"""What a bot believes about the other seats, from its own view only: the public log of
this round (who built dead ends, broke whose tools, freed whom), doors placed (only a
blue digger may place a blue door), its own inspections and the cards in front of each
player. Nothing here can see a hidden fact: the view holds none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from games.engine import rules_for
from games.engine.cards import CardSpec
from games.engine.types import LogEvent, SeatView

from .maze import Seg, is_dead_end

TEAM_ROLES = {"blue-digger": "blue", "green-digger": "green"}


@lru_cache(maxsize=4)
def catalogue(ruleset: str) -> dict[str, CardSpec]:
    """The ruleset's printed cards (public: every player owns the rule book)."""
    return dict(rules_for(ruleset).cards)


def spec_dead_end(spec: CardSpec) -> bool:
    return is_dead_end([Seg(s.exits, s.door, s.ladder) for s in spec.segments])


@dataclass
class Knowledge:
    """Per seat: suspicion (> 0 acts like a saboteur, < 0 like a gold-digger), roles
    known for sure this round, tools broken, trapped and theft cards in front."""

    me: int
    role: str
    seats: int
    suspicion: list[float]
    known: dict[int, str] = field(default_factory=dict)
    broken: list[list[str]] = field(default_factory=list)
    trapped: list[bool] = field(default_factory=list)
    theft: list[bool] = field(default_factory=list)


def round_log(view: SeatView) -> list[LogEvent]:
    log = view.get("log") or []
    start = max((i for i, e in enumerate(log) if e.get("type") == "round_start"), default=-1)
    return log[start + 1:]


def read(view: SeatView) -> Knowledge:
    me = view["seat"]
    if me is None:
        raise ValueError("a bot plays a seat, never the spectator view")
    seats = int(view["seats"])
    know = Knowledge(me, str(view.get("role")), seats, [0.0] * seats)
    for player in view["players"]:
        in_front = player.get("in_front", [])
        know.broken.append([c["tools"][0] for c in in_front
                            if c.get("action") == "break" and c.get("tools")])
        know.trapped.append(any(c.get("action") == "trapped" for c in in_front))
        know.theft.append(any(c.get("action") == "theft" for c in in_front))
    cards = catalogue(str(view["ruleset"]))
    sus = know.suspicion
    for event in round_log(view):
        _learn(event, know, sus, cards)
    for seat, role in (view.get("inspected") or {}).items():
        know.known[int(seat)] = str(role)
    know.known[me] = know.role
    return know


def _learn(event: LogEvent, know: Knowledge, sus: list[float], cards: dict[str, CardSpec]) -> None:
    kind = event.get("type")
    actor = event.get("seat")
    if not isinstance(actor, int) or not 0 <= actor < know.seats:
        return
    target = event.get("target")
    if kind == "place":
        spec = cards.get(str(event.get("card")))
        if spec is None:
            return
        door = next((s.door for s in spec.segments if s.door), None)
        if door:
            know.known[actor] = f"{door}-digger"
        sus[actor] += 1.5 if spec_dead_end(spec) else -0.4
    elif kind == "rockfall":
        removed = cards.get(str(event.get("removed")))
        sus[actor] += -1.0 if removed is not None and spec_dead_end(removed) else 1.2
    elif kind in ("break", "trapped") and isinstance(target, int):
        if target != actor:
            sus[actor] += -0.6 if sus[target] > 1.0 else 1.2
            sus[target] -= 0.3
    elif kind in ("repair", "free_at_last") and isinstance(target, int) and target != actor:
        sus[actor] += 1.0 if sus[target] > 1.5 else -0.4
    elif kind == "swap_hats" and isinstance(target, int):
        know.known.pop(target, None)
        sus[target] = 0.0
        if target == know.me and "role" in event:
            know.role = str(event["role"])

