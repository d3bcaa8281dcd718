"""Which side each seat played in a round and which sides won, from the round's
`round_end` log event (pure Python: the event is what every seat sees once the round is
over, so nothing here knows more than the table does).

A seat's side is its role's, whatever the round's result, so the model predicts a round
from what was dealt (games.ratings.core.model), never from who won. Base game: the
gold-diggers against the saboteurs. Saboteur 2: the blue team, the green team and the
saboteurs are the sides a round can be won by (its results); the Boss wins whenever a door
team does, so the Boss is a side of their own allied to both door teams (`BOSS_TEAM`:
stronger with the doors against the saboteurs, nothing between blue and green); the
Profiteer always wins and geologists win by crystals, so their rounds say nothing of
their skill and they are left out. A trapped player is ranked with their side: the side's
result is what is rated.

A round rates only when a result side won and another lost: a base round dealt without a
saboteur, a Saboteur 2 round that nobody won (or won by a colour nobody was dealt), or
one whose door teams both won with no saboteur at the table, says nothing about anyone's
skill. When both door teams win against the saboteurs, each of them takes half the round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BASE_SIDES = {"gold-digger": "gold-diggers", "saboteur": "saboteurs"}
BOSS_TEAM = "boss-team"  # the Boss: wins with whichever door team wins
S2_SIDES = {"blue-digger": "blue", "green-digger": "green", "saboteur": "saboteurs",
            "boss": BOSS_TEAM}
S2_ORDER = ("blue", "green", "saboteurs", BOSS_TEAM)
DOOR_TEAMS = frozenset({"blue", "green"})
# Sides that never win a round alone, each allied to the sides it wins with.
ALLIES = {BOSS_TEAM: DOOR_TEAMS}


@dataclass(frozen=True)
class SideSeats:
    side: str
    seats: tuple[int, ...]
    won: bool


def round_sides(ruleset: str, event: Mapping[str, Any]) -> list[SideSeats]:
    """The sides of the round that `event` (its round_end) ended, or [] when it does not
    rate (no result side won, or none lost)."""
    roles: Sequence[str] = event.get("roles") or []
    result = str(event.get("winners") or "")
    names, order = (BASE_SIDES, ("gold-diggers", "saboteurs")) if ruleset == "base" else (
        S2_SIDES, S2_ORDER)
    seats: dict[str, list[int]] = {side: [] for side in order}
    for seat, role in enumerate(roles):
        if role in names:
            seats[names[role]].append(seat)
    winners = set(result.split("+"))
    sides = [SideSeats(side, tuple(numbers), _won(side, winners))
             for side, numbers in seats.items() if numbers]
    results = [s for s in sides if s.side not in ALLIES]
    if all(s.won for s in results) or not any(s.won for s in results):
        return []
    return sides


def _won(side: str, winners: set[str]) -> bool:
    if side in ALLIES:
        return bool(winners & ALLIES[side])
    return side in winners
