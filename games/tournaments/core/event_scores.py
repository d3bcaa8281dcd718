"""A tournament's scores and standings, from the ended tables alone (pure Python).

A player's score for one table is their share of the players they beat there, ties
half: (beaten + ties / 2) / (others at the table), so a 3-player table and a 10-player
one weigh the same (bots count as players beaten or beating). In duplicate mode a player
is compared instead with everyone who held the same seat of the same deal at the other
tables of the round (matchpoints: 1 per player beaten, 1/2 per tie, over how many there
were), which takes the role the deal gave out of the score; alone with their seat, the
table's placement counts. Scores are summed over the rounds.

Tiebreaks, in order: the opponents' average score (a harder field), then head to head
(the results between the tied players where they met). Players equal on all three share
a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Member = int


@dataclass(frozen=True)
class TableResult:
    """One ended table: its round, the deal it played (duplicate mode: the same key at
    every table that got the same deal; None otherwise), and each seat's holder (a
    member's id, None for a bot) with the nuggets the seat ended with."""

    round: int
    deal: str | None
    holders: tuple[Member | None, ...]
    nuggets: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    rank: int
    member: Member
    score: float
    opponents_average: float
    head_to_head: float
    played: int

    def as_json(self) -> dict[str, object]:
        return {"rank": self.rank, "score": round(self.score, 3),
                "opponents_average": round(self.opponents_average, 3),
                "head_to_head": round(self.head_to_head, 3), "played": self.played}


def share_beaten(mine: int, others: Sequence[int]) -> float:
    """(beaten + ties / 2) / len(others); 0.5 when there is nobody to compare with."""
    if not others:
        return 0.5
    beaten = sum(1.0 if mine > other else 0.5 if mine == other else 0.0 for other in others)
    return beaten / len(others)


def table_shares(result: TableResult) -> list[float]:
    """Each seat's placement share at its own table."""
    return [share_beaten(mine, [*result.nuggets[:seat], *result.nuggets[seat + 1:]])
            for seat, mine in enumerate(result.nuggets)]


def member_points(results: Sequence[TableResult]) -> dict[Member, list[float]]:
    """Each member's points, one per ended table they sat at."""
    same_seat: dict[tuple[str, int], list[int]] = defaultdict(list)
    for result in results:
        if result.deal is not None:
            for seat, nuggets in enumerate(result.nuggets):
                same_seat[(result.deal, seat)].append(nuggets)
    points: dict[Member, list[float]] = defaultdict(list)
    for result in results:
        shares = table_shares(result)
        for seat, holder in enumerate(result.holders):
            if holder is None:
                continue
            field = same_seat.get((result.deal, seat), []) if result.deal else []
            if len(field) > 1:
                others = list(field)
                others.remove(result.nuggets[seat])
                points[holder].append(share_beaten(result.nuggets[seat], others))
            else:
                points[holder].append(shares[seat])
    return points


def _head_to_head(results: Sequence[TableResult], group: set[Member]) -> dict[Member, float]:
    """Within `group`: 1 for each tied player beaten at a shared table, 1/2 per tie."""
    won: dict[Member, float] = dict.fromkeys(group, 0.0)
    for result in results:
        seated = [(holder, result.nuggets[seat]) for seat, holder in enumerate(result.holders)
                  if holder in group]
        for holder, mine in seated:
            won[holder] += sum(1.0 if mine > other else 0.5 if mine == other else 0.0
                               for who, other in seated if who != holder)
    return won


def standings(members: Sequence[Member], results: Sequence[TableResult]) -> list[Standing]:
    """Every member ranked by score, then opponents' average score, then head to head."""
    points = member_points(results)
    score = {member: sum(points.get(member, [])) for member in members}
    opponents: dict[Member, list[Member]] = defaultdict(list)
    for result in results:
        seated = [holder for holder in result.holders if holder is not None]
        for holder in seated:
            opponents[holder] += [other for other in seated if other != holder]
    average = {member: (sum(score.get(o, 0.0) for o in opponents[member])
                        / len(opponents[member]) if opponents[member] else 0.0)
               for member in members}
    level: dict[tuple[float, float], set[Member]] = defaultdict(set)
    for member in members:
        level[(round(score[member], 9), round(average[member], 9))].add(member)
    h2h: dict[Member, float] = {}
    for group in level.values():
        h2h.update(_head_to_head(results, group) if len(group) > 1 else dict.fromkeys(group, 0.0))
    key = {member: (-round(score[member], 9), -round(average[member], 9),
                    -round(h2h[member], 9)) for member in members}
    ordered = sorted(members, key=lambda member: (key[member], member))
    ranked: list[Standing] = []
    for place, member in enumerate(ordered, start=1):
        rank = ranked[-1].rank if ranked and key[ranked[-1].member] == key[member] else place
        ranked.append(Standing(rank=rank, member=member, score=score[member],
                               opponents_average=average[member], head_to_head=h2h[member],
                               played=len(points.get(member, []))))
    return ranked


def scores_of(members: Sequence[Member], results: Sequence[TableResult]) -> Mapping[Member, float]:
    """Each member's score so far (what the next round's pairing sorts by)."""
    points = member_points(results)
    return {member: sum(points.get(member, [])) for member in members}
