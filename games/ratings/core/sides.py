"""Which side each seat played in a round and which sides won, from the round's
`round_end` log event (pure Python: the event is what every seat sees once the round is
over, so nothing here knows more than the table does).

Base game: the gold-diggers against the saboteurs. Saboteur 2: the blue team, the green
team and the saboteurs, each its own side; the Boss and the Profiteer are ranked with
the side they win with (the Boss with the door team that won, the first of blue and
green when both did; the Profiteer, who always wins, with the first winning side), and
alone as a side of their own when they win with no side (the Profiteer when nobody
else wins) or lose (the Boss when no door team wins); geologists are left out (they
win by crystals, not with a side, and no rank against the sides is principled). A
trapped player is ranked with their side: the side's result is what is rated.

A round rates only when it has a winning and a losing side: a base round dealt without
a saboteur, or a Saboteur 2 round that nobody won, says nothing about anyone's skill.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BASE_SIDES = {"gold-digger": "gold-diggers", "saboteur": "saboteurs"}
S2_SIDES = {"blue-digger": "blue", "green-digger": "green", "saboteur": "saboteurs"}
S2_ORDER = ("blue", "green", "saboteurs")


@dataclass(frozen=True)
class SideSeats:
    side: str
    seats: tuple[int, ...]
    won: bool


def round_sides(ruleset: str, event: Mapping[str, Any]) -> list[SideSeats]:
    """The sides of the round that `event` (its round_end) ended, or [] when it does not
    rate (one side only, or no winner and loser)."""
    roles: Sequence[str] = event.get("roles") or []
    result = str(event.get("winners") or "")
    sides = (_base_sides(roles, result) if ruleset == "base"
             else _s2_sides(roles, result, set(event.get("winning_seats") or [])))
    sides = [s for s in sides if s.seats]
    if len(sides) < 2 or all(s.won for s in sides) or not any(s.won for s in sides):
        return []
    return sides


def _base_sides(roles: Sequence[str], result: str) -> list[SideSeats]:
    seats: dict[str, list[int]] = {"gold-diggers": [], "saboteurs": []}
    for seat, role in enumerate(roles):
        if role in BASE_SIDES:
            seats[BASE_SIDES[role]].append(seat)
    return [SideSeats(side, tuple(numbers), result == side) for side, numbers in seats.items()]


def _s2_won(side: str, result: str) -> bool:
    if side == "saboteurs":
        return result == "saboteurs"
    return side in result.split("+")


def _s2_sides(roles: Sequence[str], result: str, winners: set[int]) -> list[SideSeats]:
    seats: dict[str, list[int]] = {side: [] for side in S2_ORDER}
    won = {side: _s2_won(side, result) for side in S2_ORDER}
    for seat, role in enumerate(roles):
        if role in S2_SIDES:
            seats[S2_SIDES[role]].append(seat)
    for seat, role in enumerate(roles):
        if role not in ("boss", "profiteer"):
            continue
        candidates = ("blue", "green") if role == "boss" else S2_ORDER
        joined = next((side for side in candidates if won[side]), None)
        if seat in winners and joined is not None:
            seats[joined].append(seat)
        else:  # alone: the Profiteer winning with nobody, the Boss losing (or trapped)
            seats[role] = [seat]
            won[role] = seat in winners
    return [SideSeats(side, tuple(sorted(numbers)), won[side])
            for side, numbers in seats.items()]
