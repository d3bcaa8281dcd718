"""What a tournament's rows say so far: the ended tables as results (for the standings and
the next pairing), who met whom, each player's seat balance and the seats they held,
and the standings with the players' names (public names only: never an address).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from games.people.core.public_names import PublicName
from games.tournaments.core import event_scores, pairing
from games.tournaments.core.event_rows import Entry, EventSeat, EventTable, Tournament


def deal_key(table: EventTable, event: Tournament) -> str | None:
    """The deal a table played: in duplicate mode, every table of a round with as many
    seats got the same one."""
    if not event.duplicate:
        return None
    return f"{table.event_round.number}:{table.seats}"


def _holders(tables: list[EventTable]) -> dict[int, dict[int, int]]:
    """Each table's seat -> entry id."""
    seated: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, seat, entry_id in EventSeat.objects.filter(table__in=tables).values_list(
            "table_id", "seat", "entry_id"):
        seated[table_id][seat] = entry_id
    return seated


def ended_results(event: Tournament) -> list[event_scores.TableResult]:
    tables = list(EventTable.objects.filter(event_round__tournament=event,
                                            ended_at__isnull=False)
                  .select_related("event_round"))
    seated = _holders(tables)
    return [event_scores.TableResult(
        round=table.event_round.number, deal=deal_key(table, event),
        holders=tuple(seated[table.pk].get(seat) for seat in range(len(table.nuggets))),
        nuggets=tuple(table.nuggets)) for table in tables]


@dataclass(frozen=True)
class History:
    """Who met whom, and each player's seats so far (ended or not)."""

    meetings: dict[pairing.Pair, int]
    balance: dict[int, float]
    seats_held: dict[int, frozenset[int]]


def history(event: Tournament) -> History:
    tables = list(EventTable.objects.filter(event_round__tournament=event))
    seated = _holders(tables)
    sizes = {table.pk: table.seats for table in tables}
    balance: dict[int, float] = defaultdict(float)
    held: dict[int, set[int]] = defaultdict(set)
    for table_id, seats in seated.items():
        for seat, entry_id in seats.items():
            balance[entry_id] += pairing.seat_balance(seat, sizes[table_id])
            held[entry_id].add(seat)
    return History(meetings=pairing.meetings_of([list(s.values()) for s in seated.values()]),
                   balance=dict(balance),
                   seats_held={entry: frozenset(seats) for entry, seats in held.items()})


@dataclass(frozen=True)
class StandingShown:
    standing: event_scores.Standing
    name: str  # the public name, else "" (the page says "Player N", N its entry number)
    number: int  # the entry's number in the event (1 for the first to join)
    dropped: bool

    def as_json(self) -> dict[str, object]:
        return {**self.standing.as_json(), "name": self.name, "player": self.number,
                "dropped": self.dropped}


def standings(event: Tournament) -> list[StandingShown]:
    entries = list(Entry.objects.filter(tournament=event).order_by("joined_at", "pk"))
    numbers = {entry.pk: number for number, entry in enumerate(entries, start=1)}
    names = dict(PublicName.objects.filter(mailbox__in={e.mailbox_key for e in entries})
                 .values_list("mailbox", "name"))
    by_id = {entry.pk: entry for entry in entries}
    ranked = event_scores.standings(list(by_id), ended_results(event))
    return [StandingShown(standing=row, name=names.get(by_id[row.member].mailbox_key, ""),
                          number=numbers[row.member],
                          dropped=by_id[row.member].dropped_at is not None)
            for row in ranked]
