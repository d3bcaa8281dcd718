"""Swiss pods (games.tournaments.core.pairing): every player seated exactly once, table
sizes within the event's bounds, the same seed the same pairing, and fewer repeat
meetings than a random seating; scoring by placement normalised for table size."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.core import event_scores, pairing


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[pairing.Entrant], dict[pairing.Pair, int], int, int]:
    low = draw(st.integers(2, 6))
    high = draw(st.integers(low, 10))
    count = draw(st.integers(1, 40))
    entrants = [pairing.Entrant(id=n, score=draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0])),
                                balance=draw(st.floats(-2, 2)))
                for n in range(count)]
    met = draw(st.lists(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)),
                        max_size=30))
    meetings = {pairing.pair(a, b): 1 for a, b in met if a != b}
    return entrants, meetings, low, high


@settings(max_examples=60, deadline=None)
@given(fields(), st.integers(0, 2**32))
def test_every_player_is_seated_once_at_tables_within_bounds(
        field: tuple[list[pairing.Entrant], dict[pairing.Pair, int], int, int],
        seed: int) -> None:
    entrants, meetings, low, high = field
    found = pairing.pair_round(entrants, meetings, low=low, high=high, seed=seed)
    seated = [who for table in found.tables for who in table if who is not None]
    assert sorted(seated) == sorted(who.id for who in entrants)
    # Every table within the bounds, bots (None) filling those the field leaves short.
    assert all(low <= len(table) <= high for table in found.tables)
    people = [sum(who is not None for who in table) for table in found.tables]
    assert min(people) >= 1 and max(people) - min(people) <= 1
    again = pairing.pair_round(list(reversed(entrants)), dict(meetings), low=low, high=high,
                               seed=seed)
    assert again.tables == found.tables


def _play(tables: list[list[int | None]],
          rng: random.Random) -> list[event_scores.TableResult]:
    return [event_scores.TableResult(round=1, deal=None, holders=tuple(table),
                                nuggets=tuple(rng.randint(0, 9) for _ in table))
            for table in tables]


def _repeats(rounds: list[list[list[int | None]]]) -> int:
    met = pairing.meetings_of([[who for who in table if who is not None]
                               for tables in rounds for table in tables])
    return sum(1 for count in met.values() if count > 1)


def test_repeat_meetings_are_fewer_than_a_random_seating() -> None:
    rng = random.Random(5)
    ids = list(range(40))
    swiss: list[list[list[int | None]]] = []
    results: list[event_scores.TableResult] = []
    for number in range(4):
        scores = event_scores.scores_of(ids, results)
        meetings = pairing.meetings_of([[who for who in t if who is not None]
                                        for tables in swiss for t in tables])
        found = pairing.pair_round([pairing.Entrant(id=n, score=scores[n]) for n in ids],
                                   meetings, low=5, high=5, seed=number)
        swiss.append(found.tables)
        results += _play(found.tables, rng)
    shuffled: list[list[list[int | None]]] = []
    for _number in range(4):
        order = ids[:]
        rng.shuffle(order)
        shuffled.append([list[int | None](order[i:i + 5]) for i in range(0, 40, 5)])
    assert _repeats(swiss) < _repeats(shuffled)
    assert _repeats(swiss) <= len(list(combinations(ids, 2))) * 0.03


def test_table_sizes_are_as_even_as_the_field_allows() -> None:
    assert pairing.table_sizes(9, 3, 3) == [3, 3, 3]
    assert pairing.table_sizes(11, 3, 5) == [4, 4, 3]
    assert pairing.table_sizes(7, 5, 5) == [4, 3]  # bots fill both to five
    assert pairing.table_sizes(0, 3, 5) == []


def test_the_latest_sitters_take_the_first_seats_and_duplicate_seats_rotate() -> None:
    members = [pairing.Entrant(id=1, balance=-1.0), pairing.Entrant(id=2, balance=1.0),
               pairing.Entrant(id=3, balance=0.0, seats_held=frozenset({1}))]
    assert pairing.seat_order(members) == [2, 3, 1]
    assert pairing.seat_order(members, duplicate=True) == [2, 1, 3]
    # A bot's seat (None) where it leaves the balances closest to 0.
    assert pairing.seat_order(members[:2], 3) == [2, None, 1]


def test_placement_is_normalised_for_table_size_and_ties_count_half() -> None:
    small = event_scores.TableResult(round=1, deal=None, holders=(1, 2, 3), nuggets=(5, 2, 2))
    large = event_scores.TableResult(round=1, deal=None, holders=(4, 5, 6, 7, 8, None),
                                nuggets=(9, 1, 1, 1, 1, 1))
    points = event_scores.member_points([small, large])
    assert points[1] == [1.0] and points[4] == [1.0]
    assert points[2] == [0.25] and points[5] == [0.4]


def test_duplicate_scores_each_seat_against_the_same_seat_elsewhere() -> None:
    first = event_scores.TableResult(round=1, deal="1:3", holders=(1, 2, 3), nuggets=(0, 4, 4))
    second = event_scores.TableResult(round=1, deal="1:3", holders=(4, 5, 6), nuggets=(3, 1, 1))
    points = event_scores.member_points([first, second])
    # Seat 0 got nothing at table 1 but three at table 2: player 4 beat player 1.
    assert points[4] == [1.0] and points[1] == [0.0]
    assert points[2] == [1.0] and points[5] == [0.0]


def test_tiebreaks_opponents_average_then_head_to_head() -> None:
    results = [
        event_scores.TableResult(round=1, deal=None, holders=(1, 2, 3), nuggets=(3, 3, 0)),
        event_scores.TableResult(round=1, deal=None, holders=(4, 5, 6), nuggets=(5, 0, 0)),
    ]
    ranked = event_scores.standings([1, 2, 3, 4, 5, 6], results)
    assert [row.member for row in ranked][:1] == [4]
    # 1 and 2 tied on everything: they share a rank.
    first_two = [row for row in ranked if row.member in (1, 2)]
    assert first_two[0].rank == first_two[1].rank
