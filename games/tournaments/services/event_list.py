"""The tournaments as /tournaments/, an event's page, the home and the JSON API show them:
settings, players of the cap, the rounds (tables ended of tables; in duplicate mode the
deal's commitment, and its seed and salt once every table of the round has ended), and
the standings. Public names only, never an address; no table's game is linked (nobody
sees another table's game: each player has their own link, by email and on their home).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Q

from games.clock.core.clock_presets import clock_words, matching_preset
from games.tournaments.core.event_rows import EventRound, Tournament
from games.tournaments.core.event_settings import stored_clock
from games.tournaments.services.results import StandingShown, standings

SHOWN = 100  # events listed: open and running, then the latest ended


@dataclass(frozen=True)
class EventShown:
    id: int
    name: str
    ruleset: str
    min_size: int
    max_size: int
    rounds: int
    hours_per_move: int
    clock: dict[str, Any]
    language: str
    rated: bool
    duplicate: bool
    cap: int
    players: int
    signup_closes: datetime
    round_days: int
    status: str
    current_round: int

    @property
    def clock_words(self) -> str:
        """The games' time bank and days off in the reader's words; "" for the fixed
        hours per move (the pace says it)."""
        chosen = stored_clock(self.clock)
        return clock_words(self.hours_per_move, chosen) if chosen is not None else ""

    @property
    def clock_preset(self) -> str | None:
        """The name of the clock preset the event's clock is (None: a clock of its own)."""
        preset = matching_preset(self.hours_per_move, stored_clock(self.clock))
        return preset.name if preset is not None else None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "ruleset": self.ruleset,
                "players": {"min": self.min_size, "max": self.max_size},
                "rounds": self.rounds, "hours_per_move": self.hours_per_move,
                "clock": self.clock or None, "clock_preset": self.clock_preset,
                "language": self.language, "rated": self.rated,
                "duplicate": self.duplicate, "cap": self.cap, "joined": self.players,
                "signup_closes": self.signup_closes.isoformat(),
                "round_days": self.round_days, "status": self.status,
                "current_round": self.current_round}


def shown(event: Tournament, players: int) -> EventShown:
    return EventShown(
        id=event.pk, name=event.name, ruleset=event.ruleset, min_size=event.min_size,
        max_size=event.max_size, rounds=event.rounds, hours_per_move=event.hours_per_move,
        clock=event.clock,
        language=event.language, rated=event.rated, duplicate=event.duplicate, cap=event.cap,
        players=players, signup_closes=event.signup_closes_at, round_days=event.round_days,
        status=event.status, current_round=event.current_round)


def listed(events: list[Tournament] | None = None) -> list[EventShown]:
    """Events open for sign-up and running (soonest first), then the latest ended (or
    these events)."""
    if events is None:
        live = Tournament.objects.filter(status__in=(Tournament.Status.OPEN,
                                                     Tournament.Status.RUNNING))
        events = list(live.order_by("signup_closes_at", "pk")[:SHOWN])
        events += list(Tournament.objects.exclude(pk__in=live.values("pk"))
                       .order_by("-ended_at", "-pk")[:SHOWN - len(events)])
    counts = dict(Tournament.objects.filter(pk__in=[e.pk for e in events])
                  .annotate(n=Count("entries")).values_list("pk", "n"))
    return [shown(event, counts.get(event.pk, 0)) for event in events]


@dataclass(frozen=True)
class RoundShown:
    number: int
    started: datetime
    deadline: datetime
    tables: int
    ended: int
    commitment: str  # duplicate mode: the deal's, published when the round is paired
    seed: int | None  # revealed once every table of the round has ended
    salt: str

    def as_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"round": self.number, "started": self.started.isoformat(),
                                  "deadline": self.deadline.isoformat(),
                                  "tables": self.tables, "ended": self.ended}
        if self.commitment:
            answer["deal"] = {"commitment": self.commitment, "seed": self.seed,
                              "salt": self.salt or None}
        return answer


@dataclass(frozen=True)
class EventPage:
    event: EventShown
    rounds: list[RoundShown]
    standings: list[StandingShown] = field(default_factory=list)
    seed: int = 0

    def as_json(self) -> dict[str, Any]:
        return {**self.event.as_json(), "pairing_seed": self.seed,
                "rounds_played": [row.as_json() for row in self.rounds],
                "standings": [row.as_json() for row in self.standings]}


def event_page(event_id: int) -> EventPage | None:
    """An event's page, or None when there is no such event."""
    event = Tournament.objects.filter(pk=event_id).first()
    if event is None:
        return None
    rows = (EventRound.objects.filter(tournament=event).order_by("number")
            .annotate(n=Count("tables"),
                      ended=Count("tables", filter=Q(tables__ended_at__isnull=False))))
    rounds = []
    for row in rows:
        revealed = row.n > 0 and row.ended == row.n
        rounds.append(RoundShown(
            number=row.number, started=row.started_at, deadline=row.deadline_at,
            tables=row.n, ended=row.ended,
            commitment=row.deal_commitment, seed=row.deal_seed if revealed else None,
            salt=row.deal_salt if revealed else ""))
    return EventPage(event=shown(event, event.entries.count()), rounds=rounds,
                     standings=standings(event), seed=event.seed)
