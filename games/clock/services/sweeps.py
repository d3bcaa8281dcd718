"""Deadlines: the sweep the beat runs every minute, and the claim of an interval every
sweep shares (the reminders and digests: games.mail.services.reminder_sweeps; vacations:
games.clock.services.vacations).

A sweep does not work through games itself, and it does not write a row per game to
claim it. It claims a *time interval*: a SweepMark row says how far the sweep has
got, and one conditional UPDATE moves it from there to now (two sweeps racing, e.g.
two beats by mistake: only one moves it, the other does nothing). The games whose
deadline (or reminder time) lies in that interval come from one indexed range query
on (status, deadline_at) or (status, reminder_at), and are handed to tasks in
batches of BATCH (`handle_deadlines`, `handle_reminders`). So a sweep costs about
the bare query plus a few messages, whatever the number of due games.

Each game is then claimed by its task: its row locked with FOR UPDATE SKIP LOCKED (on
PostgreSQL; two workers holding the same game, the same batch delivered twice or two
sweeps' overlapping batches, never wait for each other: one acts, the other skips), and
the timeout (services.miss_deadline) applies only if the game is still at the version
and deadline the sweep saw (a player who moved meanwhile wins; a batch run twice does
nothing the second time), and a reminder only if `reminder_at` is still what the
sweep saw (its Notification key makes a second email impossible anyway). A handled
game's deadline moves into the future, so it is never due again. Two beats, or two
workers sweeping at once, therefore act on every due game once
(tests/play/test_sweeps_that_share.py counts it on PostgreSQL).

Nothing is lost: each sweep also looks OVERLAP back (a deadline written by a
transaction that committed just after the previous sweep's query), and picks up
games still due LOST_AFTER after their interval was handed out (their task was lost:
a worker died, the broker dropped it). Nothing waits in the broker for a day.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from django.utils import timezone

from games.clock.core import timing as timing
from games.clock.services.misses import miss_deadline
from games.game.core.game import Game
from games.kit.sweep_marks import SweepMark

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


# ---- daily digests -----------------------------------------------------------------------


