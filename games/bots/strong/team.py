"""Team play for diggers: a digger's look-ahead scores what its side knows, not only
what the bot does, with the side read from each world's roles (a hypothesis drawn from
the joint belief, so "teammate" is by belief).

A goal turned, or mapped this round by anyone on the side (the bot, a teammate earlier,
or a teammate's answer in the look-ahead: the engine keeps each seat's maps), is known
to the side; an uncertainty is the entropy the bot's gold posterior keeps over the goals
not seen. The bot digs by what it knows itself, its teammates by what they know (and
the bot reads their digging only in part, through the evidence model), so a line is
scored by the mean of the two (SHARED): a map under a goal a teammate has mapped, or
maps in its answer, is worth half what it is alone; a map under another goal is worth
more than alone. The normal bot maps the goal nearest the tunnel whoever looked there
before, so two normal diggers map the same goal; `map_bonus` ranks the candidate maps
the same way before the search.

The rest of what teammates will likely do next is in the look-ahead's answers already:
every seat answers from its role's policy (a teammate mends its own tools first), so a
repair a teammate makes in its answer anyway ends the line where the bot does something
else with the tool mended too. The tools in the leaf stay every digger's: in Saboteur 2
the rival team digs the same tunnel, and only doors and the finder decide who wins.

Sides: a base gold-digger's are the gold-diggers; a Saboteur 2 team digger's its team
and the boss (who wins with either team); the boss's both teams.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.engine import State
from games.engine.types import Move, SeatView

from ..context import FRIENDS
from ..knowledge import round_log
from .belief import own_seat
from .joint import Joint, entropy

# Score points per bit the side learns (the normal bot scores a map 8 at most, for the
# log2(3) = 1.6 bits of a first look under three goals: about 5 a bit).
MAP_POINTS = 5.0
# The share of a line's uncertainty that is the side's (the rest is the bot's own): not
# measured; the mean of the two (a first version scored the side's alone).
SHARED = 0.5


def on_side(role: str, other: str) -> bool:
    """Whether a seat holding `other` wins the round with a `role` digger."""
    return other == role or FRIENDS.get(role, {}).get(other, 0.0) < 0


def side(roles: Sequence[str], me: int, role: str) -> list[int]:
    """The seats on the bot's side (the bot included) in a world with these roles."""
    return [s for s, r in enumerate(roles) if s == me or on_side(role, r)]


def uncertainty(known: Iterable[int], gold: Sequence[float]) -> float:
    """Bits still lacking about the gold's goal to whoever has seen the goals `known`:
    0 if the gold is among them, else the entropy of the posterior over the goals left
    (the expectation over the bot's gold posterior)."""
    seen = set(known)
    rest = [p for g, p in enumerate(gold) if g not in seen]
    left = sum(rest)
    return left * entropy([p / left for p in rest]) if left > 0 else 0.0


def line_uncertainty(state: State, me: int, role: str, gold: Sequence[float]) -> float:
    """At a line's end: the mean (SHARED) of what the bot and what its side (by the
    world's roles) still lack about the gold. Goals turned, or mapped by a seat (the
    engine keeps each seat's maps), are known to it."""
    known = {g for g, turned in enumerate(state.goal_revealed) if turned}
    mine = known | set(state.known_goals[me])
    ours = set(mine)
    for seat in side(state.roles, me, role):
        ours.update(state.known_goals[seat])
    return (1 - SHARED) * uncertainty(mine, gold) + SHARED * uncertainty(ours, gold)


def public_maps(view: SeatView) -> dict[int, set[int]]:
    """The goals each seat mapped this round, from the public log."""
    maps: dict[int, set[int]] = {}
    for event in round_log(view):
        if event.get("type") == "map" and isinstance(event.get("seat"), int) \
                and isinstance(event.get("goal"), int):
            maps.setdefault(int(event["seat"]), set()).add(int(event["goal"]))
    return maps


def side_before_after(view: SeatView, joint: Joint | None, gold: Sequence[float],
                      goal: int | None) -> float:
    """The side's expected uncertainty about the gold (bits) when the bot has also
    mapped `goal` (None: before it maps), over the joint belief's hypotheses of which
    of this round's mappers are on the bot's side."""
    me, role = own_seat(view), str(view.get("role"))
    maps = public_maps(view)
    mine = {int(g["goal"]) for g in view["goals"] if g["revealed"]} | maps.pop(me, set())
    if goal is not None:
        mine.add(goal)
    if joint is None or not maps:
        return uncertainty(mine, gold)
    mappers = sorted(maps)
    # Hypotheses grouped by which mappers are on the bot's side.
    groups: dict[tuple[bool, ...], float] = {}
    for (roles, _), weight in zip(joint.hyps, joint.weights, strict=True):
        key = tuple(on_side(role, joint.roles[roles[s]]) for s in mappers)
        groups[key] = groups.get(key, 0.0) + weight
    total = sum(groups.values()) or 1.0
    out = 0.0
    for key, weight in groups.items():
        known = set(mine)
        for seat, ours in zip(mappers, key, strict=True):
            if ours:
                known |= maps[seat]
        out += weight / total * uncertainty(known, gold)
    return out


def map_bonus(view: SeatView, moves: Sequence[Move], joint: Joint | None,
              gold: Sequence[float]) -> dict[int, float]:
    """Score points to add to the normal bot's score of each legal map (by index in
    `moves`): the normal bot values a map by what the bot alone learns, a team player
    by the mean (SHARED) of that and what its side learns. MAP_POINTS per bit of the
    difference; nothing when no one else mapped this round (then both are the same)."""
    maps = {i: int(m["goal"] or 0) for i, m in enumerate(moves)
            if m.get("type") == "map" and isinstance(m.get("goal"), int)}
    if not maps or not public_maps(view).keys() - {own_seat(view)}:
        return {}
    alone = uncertainty(_seen_by_me(view), gold)
    together = side_before_after(view, joint, gold, None)
    out = {}
    for goal in set(maps.values()):
        mine = uncertainty(_seen_by_me(view) | {goal}, gold)
        ours = side_before_after(view, joint, gold, goal)
        out[goal] = MAP_POINTS * SHARED * ((together - ours) - (alone - mine))
    return {i: out[goal] for i, goal in maps.items()}


def _seen_by_me(view: SeatView) -> set[int]:
    """Goals turned or mapped by the bot this round."""
    me = own_seat(view)
    return {int(g["goal"]) for g in view["goals"] if g["revealed"]} \
        | public_maps(view).get(me, set())
