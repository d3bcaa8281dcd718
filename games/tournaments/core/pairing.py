"""Swiss pods: a round seats the field into tables by minimising a stated cost, greedy
from the leaders and then improved by local search, with a fixed seed so the same field
gives the same pairing (anyone can run it again and check it). Pure Python, no Django.

The cost of a pairing (lower is better), summed over its tables:

    SPREAD_WEIGHT x (the best score at the table - the worst)      players of a level meet
  + REPEAT_WEIGHT x sum over the table's pairs of (meetings before)^2   new faces
  + SEAT_AGAIN_WEIGHT x players who could only take a seat they held    duplicate mode

and, once the tables are chosen, each table's seat order is chosen so each player's seat
balance (how late they sat so far: -1 for a first seat, +1 for a last, summed over their
games) comes back towards 0 (the sum of the squared balances after the round, smallest):
the latest sitters take the first seats. In duplicate mode a seat is a role of the deal,
and a player is not given a seat they held before while the table allows another
(nobody holds the same seat twice while the table allows).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

SPREAD_WEIGHT = 1.0
REPEAT_WEIGHT = 10.0
WINDOW_PER_SEAT = 3  # the greedy looks this many candidates per seat ahead of the leaders
MAX_PASSES = 30  # local search: passes over every pair of tables at most
EXACT_SEATS = 6  # up to this many seats a table's every seat order is tried
SEAT_AGAIN_WEIGHT = 100.0  # duplicate mode: a seat held before, avoided where possible

Pair = tuple[int, int]


def pair(first: int, second: int) -> Pair:
    """The key of two players' meetings, whichever order they come in."""
    return (first, second) if first < second else (second, first)


@dataclass(frozen=True)
class Entrant:
    """One player to seat: their id, their score so far, their seat balance (the sum of
    `seat_balance` over their games) and the seats they held (duplicate mode)."""

    id: int
    score: float = 0.0
    balance: float = 0.0
    seats_held: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Pairing:
    """The tables, each a list of player ids in seat order (seat 0 first; None for a
    bot's seat at a table the field leaves short of `low`), and its cost."""

    tables: list[list[int | None]]
    cost: float
    repeats: int = 0  # pairs at a table that met before


def table_sizes(players: int, low: int, high: int) -> list[int]:
    """How many players sit at each table: as few tables as the largest size allows, the
    players spread as evenly as they go (larger tables first). A table of fewer than
    `low` players is filled with bots by the caller."""
    if players <= 0:
        return []
    if not 1 <= low <= high:
        raise ValueError("table sizes need 1 <= low <= high")
    count = math.ceil(players / high)
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def seat_balance(seat: int, size: int) -> float:
    """-1 for the first seat, +1 for the last, evenly between."""
    return 0.0 if size <= 1 else 2 * seat / (size - 1) - 1


def fresh_seats(members: Sequence[int], held: Mapping[int, frozenset[int]]) -> int:
    """How many of the table's players can get a seat they have not held (a matching of
    players to fresh seats, by augmenting paths: tables are small)."""
    size = len(members)
    seat_of: dict[int, int] = {}  # seat -> the player's index holding it

    def place(who: int, tried: set[int]) -> bool:
        for seat in range(size):
            if seat in tried or seat in held.get(members[who], frozenset()):
                continue
            tried.add(seat)
            if seat not in seat_of or place(seat_of[seat], tried):
                seat_of[seat] = who
                return True
        return False

    return sum(place(who, set()) for who in range(size))


def table_cost(members: Sequence[int], scores: Mapping[int, float],
               meetings: Mapping[Pair, int],
               held: Mapping[int, frozenset[int]] | None = None) -> float:
    """The table's cost; with `held` (duplicate mode) also SEAT_AGAIN_WEIGHT for each
    player who could only sit in a seat they held before."""
    if not members:
        return 0.0
    shown = [scores[member] for member in members]
    repeats = sum(meetings.get(pair(a, b), 0) ** 2 for a, b in combinations(members, 2))
    cost = SPREAD_WEIGHT * (max(shown) - min(shown)) + REPEAT_WEIGHT * repeats
    if held is not None:
        cost += SEAT_AGAIN_WEIGHT * (len(members) - fresh_seats(members, held))
    return cost


def pairing_cost(tables: Sequence[Sequence[int]], scores: Mapping[int, float],
                 meetings: Mapping[Pair, int],
                 held: Mapping[int, frozenset[int]] | None = None) -> float:
    return sum(table_cost(table, scores, meetings, held) for table in tables)


def _greedy(order: list[int], sizes: list[int], scores: Mapping[int, float],
            meetings: Mapping[Pair, int],
            held: Mapping[int, frozenset[int]] | None) -> list[list[int]]:
    """Tables filled from the leaders: each table opens with the best remaining player,
    then takes, of the next few in the order, whoever adds the least cost."""
    left = list(order)
    tables: list[list[int]] = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            window = left[:WINDOW_PER_SEAT * size]
            best = min(window, key=lambda who: (
                table_cost([*table, who], scores, meetings, held), window.index(who)))
            left.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def _improve(tables: list[list[int]], scores: Mapping[int, float],
             meetings: Mapping[Pair, int], held: Mapping[int, frozenset[int]] | None,
             rng: random.Random) -> None:
    """Swap two players of two tables while a swap lowers the cost (in place)."""
    costs = [table_cost(table, scores, meetings, held) for table in tables]
    pairs = list(combinations(range(len(tables)), 2))
    for _pass in range(MAX_PASSES):
        rng.shuffle(pairs)
        better = False
        for a, b in pairs:
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    first, second = tables[a][:], tables[b][:]
                    first[i], second[j] = second[j], first[i]
                    cost_a = table_cost(first, scores, meetings, held)
                    cost_b = table_cost(second, scores, meetings, held)
                    if cost_a + cost_b < costs[a] + costs[b] - 1e-9:
                        tables[a], tables[b] = first, second
                        costs[a], costs[b] = cost_a, cost_b
                        better = True
        if not better:
            return


def _seating_cost(seats: Sequence[int], members: Sequence[Entrant], size: int, *,
                  duplicate: bool) -> float:
    """How far giving members[i] the seat seats[i] leaves their balances from 0
    (squared), and in duplicate mode a heavy price for each seat held before."""
    return sum((who.balance + seat_balance(seat, size)) ** 2
               + (SEAT_AGAIN_WEIGHT if duplicate and seat in who.seats_held else 0.0)
               for seat, who in zip(seats, members, strict=True))


def seat_order(members: Sequence[Entrant], size: int | None = None, *,
               duplicate: bool = False) -> list[int | None]:
    """The table's seats (`size`, bots included: None) in order, chosen to bring the
    players' seat balances closest to 0 (in duplicate mode, giving nobody a seat they
    held before where the table allows): every choice is tried at tables of up to
    EXACT_SEATS seats; at larger ones the latest sitters take the first seats (in
    duplicate mode, each seat the latest sitter who has not held it) and bots the last."""
    size = len(members) if size is None else size
    ordered = sorted(members, key=lambda who: who.id)
    table: list[int | None] = [None] * size
    if size <= EXACT_SEATS:
        best = min(permutations(range(size), len(ordered)), key=lambda seats: (
            round(_seating_cost(seats, ordered, size, duplicate=duplicate), 9), seats))
        for seat, who in zip(best, ordered, strict=True):
            table[seat] = who.id
        return table
    waiting = sorted(ordered, key=lambda who: (-who.balance, who.id))
    for seat in range(len(ordered)):
        fresh = [who for who in waiting if seat not in who.seats_held] if duplicate else []
        chosen = (fresh or waiting)[0]
        waiting.remove(chosen)
        table[seat] = chosen.id
    return table


def pair_round(entrants: Sequence[Entrant], meetings: Mapping[Pair, int], *, low: int,
               high: int, seed: int, duplicate: bool = False) -> Pairing:
    """Seat every entrant exactly once at tables of at most `high` players (fewer than
    `low` only when the field is too small: bots take the seats marked None). The same
    entrants, meetings and seed give the same pairing."""
    rng = random.Random(seed)
    by_id = {who.id: who for who in entrants}
    scores = {who.id: who.score for who in entrants}
    ties = {who.id: rng.random() for who in sorted(entrants, key=lambda who: who.id)}
    order = sorted(by_id, key=lambda who: (-scores[who], ties[who]))
    held = {who.id: who.seats_held for who in entrants} if duplicate else None
    tables = _greedy(order, table_sizes(len(order), low, high), scores, meetings, held)
    _improve(tables, scores, meetings, held, rng)
    seated = [seat_order([by_id[who] for who in table], max(len(table), low),
                         duplicate=duplicate) for table in tables]
    repeats = sum(1 for table in tables for a, b in combinations(table, 2)
                  if meetings.get(pair(a, b), 0))
    return Pairing(tables=seated, cost=pairing_cost(tables, scores, meetings, held),
                   repeats=repeats)


def meetings_of(tables: Sequence[Sequence[int]]) -> dict[Pair, int]:
    """How often each pair of players sat at a table together (bots left out: None)."""
    counts: dict[Pair, int] = {}
    for table in tables:
        for a, b in combinations(sorted(table), 2):
            counts[pair(a, b)] = counts.get(pair(a, b), 0) + 1
    return counts
