"""A tournament's rounds: sign-up closes and round 1 is paired; tables end; the next round
pairs the players whose tables ended once a set share of the round's tables has ended or
at the round's deadline, whichever comes first; the event ends when every player has
played every round (or been dropped), and its result is emailed to each member and the
host (games.tournaments.services.event_end). The beat's `sweep_tournaments` does it all, each
event in a transaction of its own with its row locked, so a second run changes nothing.

Each table is an ordinary game (games.setup.services.game_setup.create_game): the
players' public names (else "Player N"), each in the language and time zone of their
home, every seat accepted at once (joining was the yes) and emailed its own link only;
bots fill a table the field leaves short. A game past its deadlines is handled by the
rules every game has (the timeout policy, bots, standby volunteers); a player whose seat
missed a deadline in two of the event's games is a no-show twice and is dropped from
later rounds.

Duplicate mode: every table of a round gets the round's seed (tables of one size: one
deal), its commitment published with the round and its salt revealed when the round has
ended; each game's record shows its seed, and `verifygame record.json --deal
SALT:COMMITMENT` checks it is the round's.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.game.core.game import Game, SeatKind
from games.mail.services import follow_ups
from games.records.core import fairness
from games.seats.core.seat import Seat
from games.setup.core.player_defaults import seat_language_and_zone
from games.setup.services.game_setup import PlayerSpec, bot_players, create_game
from games.tables.services.naming import name_of
from games.tournaments.core import event_scores, pairing
from games.tournaments.core.event_rows import (
    Entry,
    EventRound,
    EventSeat,
    EventTable,
    Tournament,
)
from games.tournaments.core.event_settings import stored_clock
from games.tournaments.services.event_end import FINISHED, TOO_FEW, end_cancelled, queue_results
from games.tournaments.services.results import ended_results, history
from games.tournaments.services.table_ends import close_table

log = logging.getLogger(__name__)
SEED_MASK = (1 << 62) - 1
ENDED = (Game.Status.FINISHED, Game.Status.CANCELLED)


def round_seed(event: Tournament, number: int, wave: int) -> int:
    """The pairing's seed: the event's, the round and the wave (a later pairing of the
    same round, for tables that ended late) mixed in, so it is stated and reproducible."""
    return (event.seed * 1_000_003 + number * 7919 + wave) & SEED_MASK


def _players(event: Tournament, entries: list[Entry], numbers: dict[int, int]) -> list[PlayerSpec]:
    specs, taken = [], set()
    with translation.override(event.language):
        for entry in entries:
            number = numbers[entry.pk]
            name = name_of(entry.address) or _("Player %(n)s") % {"n": number}
            while name.casefold() in taken:
                name = f"{name} {number}"
            taken.add(name.casefold())
            language, zone = seat_language_and_zone(entry.address,
                                                    game_language=event.language)
            specs.append(PlayerSpec(name=name, email=entry.address, language=language,
                                    time_zone=zone))
    return specs


def _round_row(event: Tournament, number: int, now: datetime) -> EventRound:
    found = EventRound.objects.filter(tournament=event, number=number).first()
    if found is not None:
        return found
    row = EventRound(tournament=event, number=number, started_at=now,
                     deadline_at=now + timedelta(days=event.round_days))
    if event.duplicate:
        row.deal_seed = round_seed(event, number, 999_983)
        row.deal_salt = fairness.new_salt()
        row.deal_commitment = fairness.commitment(row.deal_salt, row.deal_seed)
    row.save()
    return row


def _open_table(event: Tournament, row: EventRound, number: int,
                seated: list[Entry | None], numbers: dict[int, int]) -> EventTable:
    """One table's game (None: a bot's seat), started, each member emailed their own
    link."""
    entries = [entry for entry in seated if entry is not None]
    people = _players(event, entries, numbers)
    bots = iter(bot_players(len(seated) - len(entries), [p.name for p in people]))
    humans = iter(people)
    players = [next(humans) if entry is not None else next(bots) for entry in seated]
    made = create_game(name=f"{event.name}: {row.number}.{number}"[:100], players=players,
                       ruleset=event.ruleset, hours_per_move=event.hours_per_move,
                       seed=row.deal_seed, start=True, invite=False, rated=event.rated,
                       clock=stored_clock(event.clock), accepted=True)
    table = EventTable.objects.create(event_round=row, number=number, seats=len(players),
                                      game=made.game)
    EventSeat.objects.bulk_create([EventSeat(table=table, entry=entry, seat=seat)
                                   for seat, entry in enumerate(seated) if entry is not None])
    persons = list(Seat.objects.filter(game=made.game, kind=SeatKind.PERSON))
    for seat in persons:  # the seat email, each with their own link only
        follow_ups.send_invitation(seat.pk)
    return table


def pair(event: Tournament, number: int, entries: list[Entry]) -> EventRound:
    """Seat `entries` at new tables of round `number` (the locked event's), by the
    Swiss pods' cost with the round's seed."""
    now = timezone.now()
    row = _round_row(event, number, now)
    past = history(event)
    scores = event_scores.scores_of([entry.pk for entry in entries], ended_results(event))
    wave = EventTable.objects.filter(event_round=row).count()
    entrants = [pairing.Entrant(id=entry.pk, score=scores.get(entry.pk, 0.0),
                                balance=past.balance.get(entry.pk, 0.0),
                                seats_held=past.seats_held.get(entry.pk, frozenset()))
                for entry in entries]
    found = pairing.pair_round(entrants, past.meetings, low=event.min_size,
                               high=event.max_size, seed=round_seed(event, number, wave),
                               duplicate=event.duplicate)
    by_id = {entry.pk: entry for entry in entries}
    numbers = {entry_id: n for n, entry_id in enumerate(
        Entry.objects.filter(tournament=event).order_by("joined_at", "pk")
        .values_list("pk", flat=True), start=1)}
    for offset, seated in enumerate(found.tables, start=1):
        _open_table(event, row, wave + offset,
                    [by_id[who] if who is not None else None for who in seated], numbers)
    row.pairing_cost += found.cost
    row.save(update_fields=["pairing_cost"])
    # Numbers only: no address, no link (docs/operations.md "Tournaments").
    log.info("tournament %s round %s: %s players at %s tables, cost %.2f, %s repeat pairs",
             event.pk, number, len(entries), len(found.tables), found.cost, found.repeats)
    if number > event.current_round:
        event.current_round = number
        event.save(update_fields=["current_round"])
    return row


def start_event(event: Tournament) -> str:
    """Sign-up has closed: pair round 1, or cancel an event of fewer than two players
    (who are told so by email, as the host is)."""
    entries = list(event.entries.order_by("joined_at", "pk"))
    if len(entries) < 2:  # a table needs two people to be a contest
        end_cancelled(event, TOO_FEW)
        return "cancelled"
    event.status = Tournament.Status.RUNNING
    event.save(update_fields=["status"])
    pair(event, 1, entries)
    return "started"


def _close_tables(event: Tournament) -> None:
    """End the tables whose game ended without closing them (an ended game closes its
    table in its own transaction: games.tournaments.services.table_ends)."""
    now = timezone.now()
    for table in (EventTable.objects.filter(event_round__tournament=event,
                                            ended_at__isnull=True, game__status__in=ENDED)
                  .select_related("game")):
        assert table.game is not None
        close_table(table, table.game, now)


def _waiting(event: Tournament) -> dict[int, list[Entry]]:
    """Players whose last table has ended, by the round they play next (dropped players
    and those who played every round left out)."""
    last: dict[int, tuple[int, bool]] = {}
    for entry_id, number, ended in EventSeat.objects.filter(
            table__event_round__tournament=event).values_list(
            "entry_id", "table__event_round__number", "table__ended_at"):
        if entry_id not in last or number > last[entry_id][0]:
            last[entry_id] = (number, ended is not None)
    waiting: dict[int, list[Entry]] = defaultdict(list)
    for entry in event.entries.filter(dropped_at__isnull=True).order_by("joined_at", "pk"):
        played, done = last.get(entry.pk, (0, True))
        if done and played < event.rounds:
            waiting[played + 1].append(entry)
    return waiting


def advance(event: Tournament) -> int:
    """Pair whoever may play their next round now; end the event when nobody plays on
    (each member and the host get its result by email). How many players were seated."""
    _close_tables(event)
    now = timezone.now()
    rounds = {row.number: row for row in event.event_rounds.all()}
    open_tables: dict[int, int] = defaultdict(int)
    all_tables: dict[int, int] = defaultdict(int)
    for number, ended in EventTable.objects.filter(event_round__tournament=event).values_list(
            "event_round__number", "ended_at"):
        all_tables[number] += 1
        open_tables[number] += ended is None
    seated = 0
    for number, entries in sorted(_waiting(event).items()):
        before = rounds.get(number - 1)
        if before is None:
            continue
        ended_share = 1 - open_tables[before.number] / max(all_tables[before.number], 1)
        due = (ended_share >= event.advance_share or now >= before.deadline_at
               or number <= event.current_round)  # a later wave of a round under way
        everyone = open_tables[before.number] == 0 or now >= before.deadline_at
        if due and (len(entries) >= event.min_size or everyone):
            pair(event, number, entries)
            seated += len(entries)
    if not seated and not EventTable.objects.filter(event_round__tournament=event,
                                                    ended_at__isnull=True).exists():
        event.status, event.ended_at = Tournament.Status.FINISHED, now
        event.save(update_fields=["status", "ended_at"])
        queue_results(event, FINISHED)
    return seated


def sweep_tournaments() -> dict[str, int]:
    """Start the events whose sign-up has closed and move the running ones on (the beat).
    Each event in its own transaction, locked and checked again."""
    done = {"started": 0, "cancelled": 0, "seated": 0, "finished": 0}
    now = timezone.now()
    due = list(Tournament.objects.filter(status=Tournament.Status.OPEN,
                                         signup_closes_at__lte=now)
               .values_list("pk", flat=True)[:100])
    for event_id in due:
        with transaction.atomic():
            event = Tournament.objects.select_for_update().filter(
                pk=event_id, status=Tournament.Status.OPEN).first()
            if event is not None:
                done[start_event(event)] += 1
    running = list(Tournament.objects.filter(status=Tournament.Status.RUNNING)
                   .values_list("pk", flat=True)[:500])
    for event_id in running:
        with transaction.atomic():
            event = Tournament.objects.select_for_update().filter(
                pk=event_id, status=Tournament.Status.RUNNING).first()
            if event is None:
                continue
            done["seated"] += advance(event)
            done["finished"] += event.status == Tournament.Status.FINISHED
    return done
