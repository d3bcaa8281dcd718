"""What a move tells the table, for the joint search (lookahead.py): a saboteur's move
costs as much as it raises the public's posterior that the mover is a saboteur (the
others read the same log with the same likelihoods, so a move that looks like a
saboteur's makes the diggers break its tools and route round it); a digger's map or
inspection is worth the bits it reveals (the gold's place, a seat's role).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.types import LogEvent, Move, SeatView

from ..knowledge import round_log
from .belief import SMOOTH, dwarf_pool, keyed, table
from .joint import TEMPERATURE, entropy

SABOTEUR = "saboteur"


def as_event(view: SeatView, move: Move, me: int) -> LogEvent:
    """The log event `move` will make, as far as the likelihood features read it."""
    kind = str(move.get("type"))
    event: dict[str, Any] = {"type": kind, "seat": me}
    if kind == "place":
        event.update(card=move.get("card"), x=move.get("x"), y=move.get("y"))
    elif kind == "rockfall":
        at = (move.get("x"), move.get("y"))
        event["removed"] = next((str(c["card"]["id"]) for c in view["board"]
                                 if (c["x"], c["y"]) == at), None)
    elif kind == "action":
        event.update(type=str(_action_of(view, move)), target=move.get("target"))
    elif kind == "pass":
        event["count"] = len(move.get("cards") or [])
    elif kind == "map":
        event["goal"] = move.get("goal")
    return event  # type: ignore[return-value]


def _action_of(view: SeatView, move: Move) -> object:
    """The action of the hand card `move` plays (None when the hand holds no such card)."""
    card = next((c for c in view["hand"] if c["id"] == move.get("card")), None)
    return (card or {}).get("action")


def public_saboteur(view: SeatView, me: int, extra: LogEvent | None = None) -> float:
    """The probability a reader of the public log gives `me` being a saboteur (the
    prior from all the round's dwarf cards, nothing private), after `extra` too."""
    ruleset, seats = str(view["ruleset"]), int(view["seats"])
    pool = dwarf_pool(ruleset, seats)
    if SABOTEUR not in pool:
        return 0.0
    single: Mapping[str, Mapping[str, float]] = table().get(ruleset, {}).get("single", {})
    others = {r: pool.count(r) for r in set(pool) if r != SABOTEUR}
    odds = pool.count(SABOTEUR) / max(1, sum(others.values()))
    power = 1.0 / TEMPERATURE
    for event, key in keyed([*round_log(view), *([extra] if extra else [])], seats, ruleset):
        if key is None or event.get("seat") != me:
            continue
        sab = max(SMOOTH, single.get(SABOTEUR, {}).get(key, SMOOTH))
        rest = sum(n * max(SMOOTH, single.get(r, {}).get(key, SMOOTH))
                   for r, n in others.items()) / max(1, sum(others.values()))
        odds *= (sab / rest) ** power
    return odds / (1.0 + odds)


def exposure(view: SeatView, move: Move, me: int, before: float) -> float:
    """How much `move` raises the public's posterior that `me` is a saboteur."""
    return max(0.0, public_saboteur(view, me, as_event(view, move, me)) - before)


def revealed(view: SeatView, move: Move, gold: list[float],
             roles: Mapping[int, Mapping[str, float]]) -> float:
    """The bits a map (on the gold's place) or an inspection (on a seat's role) is
    expected to tell this seat; 0 for every other move."""
    kind = move.get("type")
    if kind == "map":
        goal = int(move.get("goal") or 0)
        p = gold[goal] if goal < len(gold) else 0.0
        rest = [g for i, g in enumerate(gold) if i != goal]
        left = sum(rest)
        after = entropy([g / left for g in rest]) if left > 0 else 0.0
        return max(0.0, entropy(gold) - (1.0 - p) * after)
    if kind == "action" and isinstance(move.get("target"), int) \
            and _action_of(view, move) == "inspection":
        return entropy(list(roles.get(int(move["target"] or 0), {}).values()))
    return 0.0
