"""Deadlines, reminders and digests: the sweeps the beat runs every minute (vacations
are games.clock.services.vacations).

A sweep does not work through games itself, and it does not write a row per game to
claim it. It claims a *time interval*: a SweepMark row says how far the sweep has
got, and one conditional UPDATE moves it from there to now (two sweeps racing, e.g.
two beats by mistake: only one moves it, the other does nothing). The games whose
deadline (or reminder time) lies in that interval come from one indexed range query
on (status, deadline_at) or (status, reminder_at), and are handed to tasks in
batches of BATCH (`handle_deadlines`, `handle_reminders`). So a sweep costs about
the bare query plus a few messages, whatever the number of due games.

Each game is then claimed by its task with a conditional update: the timeout
(services.miss_deadline) applies only if the game is still at the version and
deadline the sweep saw (a player who moved meanwhile wins; a batch run twice does
nothing the second time), and a reminder only if `reminder_at` is still what the
sweep saw (its Notification key makes a second email impossible anyway). A handled
game's deadline moves into the future, so it is never due again.

Nothing is lost: each sweep also looks OVERLAP back (a deadline written by a
transaction that committed just after the previous sweep's query), and picks up
games still due LOST_AFTER after their interval was handed out (their task was lost:
a worker died, the broker dropped it). Nothing waits in the broker for a day.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.clock.core import timing as timing
from games.clock.services import turn_clock as clock
from games.clock.services.misses import miss_deadline
from games.game.core.game import EmailMode, Game
from games.kit.sweep_marks import SweepMark
from games.mail.services import plan
from games.seats.core.seat import Seat

log = logging.getLogger("games.deadlines")

OVERLAP = timedelta(seconds=30)  # less than a sweep period: at most one repeat
LOST_AFTER = timedelta(minutes=10)
BATCH = 1000  # games per task: fewer messages per sweep (bench/sweep.py), ~20 s of work each
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)

Batch = list[list[object]]
Enqueue = Callable[[Batch], object]


def claim_interval(name: str, now: datetime) -> datetime | None:
    """Move the sweep's mark to `now`; the start of the claimed interval, or None when
    another sweep moved it first."""
    mark, _created = SweepMark.objects.get_or_create(name=name, defaults={"reached": EPOCH})
    start = min(mark.reached, now)
    moved = SweepMark.objects.filter(pk=mark.pk, reached=mark.reached).update(reached=now)
    return start if moved else None


def due_games(column: str, start: datetime, now: datetime) -> list[tuple[int, int, datetime]]:
    """(id, version, time) of the active games due in the claimed interval, and of those
    left due for LOST_AFTER (indexed ranges; the second is empty unless a task was lost)."""
    active = Game.objects.filter(status=Game.Status.ACTIVE).order_by()  # no sort: a range scan
    since = start - OVERLAP
    fresh = active.filter(**{f"{column}__gt": since, f"{column}__lte": now})
    lost = active.filter(**{f"{column}__lte": min(since, now - LOST_AFTER)})
    return [*fresh.values_list("pk", "version", column), *lost.values_list("pk", "version", column)]


def sweep(name: str, column: str, enqueue: Enqueue, now: datetime | None = None) -> int:
    now = now or timezone.now()
    start = claim_interval(name, now)
    if start is None:
        return 0
    due = due_games(column, start, now)
    rows: Batch = [[pk, version, moment.isoformat()] for pk, version, moment in due]
    for i in range(0, len(rows), BATCH):
        enqueue(rows[i:i + BATCH])
    if rows:
        log.info("%s sweep: %s games due", name, len(rows))
    return len(rows)


# ---- deadlines -------------------------------------------------------------------------


def sweep_deadlines(enqueue: Enqueue, now: datetime | None = None) -> int:
    return sweep("deadlines", "deadline_at", enqueue, now)


def handle_deadlines(batch: Sequence[Sequence[object]]) -> dict[str, int]:
    """Apply the timeout policy to each game of the batch (one transaction per game)."""
    counts = {"passed": 0, "waiting": 0, "": 0}
    for game_id, version, deadline in batch:
        try:
            counts[miss_deadline(int(str(game_id)), int(str(version)),
                                 datetime.fromisoformat(str(deadline)))] += 1
        except Exception:  # one broken game must not stop the batch; it comes back as lost
            log.exception("game %s: the missed deadline could not be handled", game_id)
    return counts


# ---- reminders -------------------------------------------------------------------------


def sweep_reminders(enqueue: Enqueue, now: datetime | None = None) -> int:
    return sweep("reminders", "reminder_at", enqueue, now)


def handle_reminders(batch: Sequence[Sequence[object]]) -> int:
    """Plan the due reminder of each game and set its next reminder time."""
    planned = 0
    for game_id, _version, seen in batch:
        with transaction.atomic():
            game = (Game.objects.select_for_update()
                    .filter(pk=int(str(game_id)), reminder_at=datetime.fromisoformat(str(seen)))
                    .first())
            if game is None:
                continue  # handled already, or the turn moved on meanwhile
            now = timezone.now()
            rules = clock.reminder_rules(game, now)
            minutes = clock.turn_reminders(game, rules) if rules else []
            planned += len(remind(game, now, rules, minutes))
            game.reminder_at = clock.next_reminder_at(game.deadline_at, minutes, now, rules)
            Game.objects.filter(pk=game.pk).update(reminder_at=game.reminder_at)
    return planned


def remind(game: Game, now: datetime, rules: timing.Rules | None,
           every: list[int]) -> list[int]:
    """Plan the due one of the turn's reminders (`every`: minutes before the deadline)."""
    minutes = clock.due_reminder(game.deadline_at, every, now, rules)
    if minutes is None or game.actor is None or game.status != Game.Status.ACTIVE:
        return []
    seat = Seat.objects.get(game=game, number=game.actor)
    times = clock.reminder_times(game.deadline_at, every) if game.deadline_at else []
    last = minutes == min(m for m, _at in times)
    return plan.queue(plan.reminder(game, seat, minutes, last=last))


# ---- daily digests -----------------------------------------------------------------------


def sweep_digests(now: datetime | None = None) -> int:
    """Plan today's digest for each address with a digest-mode seat to act, once its
    local time has reached DIGEST_HOUR. One per address and local day (the key)."""
    now = now or timezone.now()
    waiting = (Seat.objects.filter(email_mode=EmailMode.DAILY_DIGEST, email_problem_at=None,
                                   game__status=Game.Status.ACTIVE, game__actor=F("number"))
               .order_by("mailbox_key", "-created_at"))
    first: dict[str, Seat] = {}
    for seat in waiting:
        first.setdefault(seat.mailbox_key, seat)  # one per person; newest seat: language, zone
    specs = []
    for seat in first.values():
        local = timezone.localtime(now, seat.zone)
        if local.hour >= settings.DIGEST_HOUR:
            specs += plan.digest(seat.email, seat, local.date())
    with transaction.atomic():
        return len(plan.queue(specs))
