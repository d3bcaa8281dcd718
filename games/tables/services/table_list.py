"""The forming tables as /tables/, the home and GET /api/tables/ show them: settings (the
clock in words: games.clock.core.clock_presets), seats taken of the total, when the wait
ends, and the players' public names with their ratings in the table's ruleset, for those
who chose to list their ratings (games.ratings.services.shown: nobody else's number is
shown). Never an address (a member without a public name is counted, not named); at an
anonymous table nobody is named (its players meet under aliases: games.game.core.aliases).
Three queries and one per ruleset shown, however many tables. And how many tables wait per
language and pace (`waiting`, one query).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Count, QuerySet

from games.clock.core.clock_presets import clock_words, preset_named
from games.people.core.public_names import PublicName
from games.ratings.services.shown import Shown, listed_ratings_by_key
from games.tables.core.table_filters import PACES, TableFilter, pace_of
from games.tables.core.table_rows import OpenTable, TableMember

SHOWN = 200  # forming tables listed, oldest first


@dataclass(frozen=True)
class Sitter:
    name: str  # the public name ("" without one)
    rating: Shown | None  # None: no rating in the ruleset, or not listed by its player

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name,
                "rating": self.rating.as_json() if self.rating is not None else None}


@dataclass(frozen=True)
class TableShown:
    id: int
    ruleset: str
    seats: int
    joined: int
    hours_per_move: int
    language: str
    rated: bool
    bots_fill: bool
    anonymous: bool
    starts: datetime
    sitters: list[Sitter] = field(default_factory=list)
    clock: str = ""  # the clock preset's name; "": the fixed hours per move

    @property
    def clock_words(self) -> str:
        """The table's time bank and days off in the reader's words; "" for the fixed
        hours per move (its pace says it all)."""
        preset = preset_named(self.clock)
        if preset is None or preset.clock is None:
            return ""
        return clock_words(self.hours_per_move, preset.clock)

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "ruleset": self.ruleset, "seats": self.seats,
                "joined": self.joined, "hours_per_move": self.hours_per_move,
                "clock": self.clock or None,
                "language": self.language, "rated": self.rated, "bots_fill": self.bots_fill,
                "anonymous": self.anonymous, "starts": self.starts.isoformat(),
                "players": [sitter.as_json() for sitter in self.sitters]}


def open_table_ids() -> QuerySet[OpenTable, int]:
    """The SHOWN oldest forming tables' ids (a subquery)."""
    return (OpenTable.objects.filter(status=OpenTable.Status.FORMING)
            .order_by("created_at", "pk").values_list("pk", flat=True)[:SHOWN])


def _filtered(chosen: TableFilter | None) -> QuerySet[OpenTable]:
    found = OpenTable.objects.filter(status=OpenTable.Status.FORMING)
    if chosen is None:
        return found
    if chosen.language is not None:
        found = found.filter(language=chosen.language)
    if chosen.ruleset is not None:
        found = found.filter(ruleset=chosen.ruleset)
    if chosen.pace is not None:
        low, high = PACES[chosen.pace]
        found = found.filter(hours_per_move__gte=low, hours_per_move__lte=high)
    if chosen.rated is not None:
        found = found.filter(rated=chosen.rated)
    if chosen.anonymous is not None:
        found = found.filter(anonymous=chosen.anonymous)
    return found


def forming(tables: list[OpenTable] | None = None,
            chosen: TableFilter | None = None) -> list[TableShown]:
    """The forming tables (or these; or those `chosen` lets through), oldest first, with
    who sits there."""
    if tables is None:
        tables = list(_filtered(chosen).order_by("created_at", "pk")[:SHOWN])
    members: dict[int, list[str]] = defaultdict(list)
    named = [table for table in tables if not table.anonymous]
    for table_id, key in (TableMember.objects.filter(table__in=named)
                          .order_by("joined_at", "pk").values_list("table_id", "mailbox_key")):
        members[table_id].append(key)
    keys = {key for found in members.values() for key in found}
    names = dict(PublicName.objects.filter(mailbox__in=keys).values_list("mailbox", "name"))
    ratings: dict[str, dict[str, Shown]] = {}
    for ruleset in {table.ruleset for table in tables}:
        ratings[ruleset] = listed_ratings_by_key(keys, ruleset)
    # An anonymous table's sitters are counted, never named (one query for them all).
    counted = dict(TableMember.objects.filter(table__in=[t for t in tables if t.anonymous])
                   .values("table_id").annotate(n=Count("id")).values_list("table_id", "n"))
    return [TableShown(
        id=table.pk, ruleset=table.ruleset, seats=table.seats,
        joined=counted.get(table.pk, 0) if table.anonymous else len(members[table.pk]),
        hours_per_move=table.hours_per_move, language=table.language, rated=table.rated,
        bots_fill=table.bots_fill, anonymous=table.anonymous, starts=table.starts_at,
        clock=table.clock_preset,
        sitters=[Sitter(name=names.get(key, ""), rating=ratings[table.ruleset].get(key))
                 for key in members[table.pk]]) for table in tables]


@dataclass(frozen=True)
class Waiting:
    """How many forming tables wait in each language (the site's, in its order) and pace
    (games.tables.core.table_filters.PACES): /tables/'s summary and the API's `waiting`."""

    counts: dict[tuple[str, str], int]

    @property
    def rows(self) -> list[tuple[str, list[int], int]]:
        """(language, the count of each pace, the language's total), every language."""
        return [(code, [self.counts.get((code, pace), 0) for pace in PACES],
                 sum(self.counts.get((code, pace), 0) for pace in PACES))
                for code, _name in settings.LANGUAGES]

    @property
    def totals(self) -> list[int]:
        return [sum(n for (_code, pace), n in self.counts.items() if pace == each)
                for each in PACES]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def as_json(self) -> dict[str, dict[str, int]]:
        return {code: dict(zip(PACES, counts, strict=True)) for code, counts, _all in self.rows}


def waiting() -> Waiting:
    """The forming tables counted by language and pace (one grouped query)."""
    counts: dict[tuple[str, str], int] = {}
    for language, hours, count in (OpenTable.objects.filter(status=OpenTable.Status.FORMING)
                                   .values_list("language", "hours_per_move")
                                   .annotate(n=Count("id")).order_by()):
        key = (language, pace_of(hours))
        counts[key] = counts.get(key, 0) + count
    return Waiting(counts)
