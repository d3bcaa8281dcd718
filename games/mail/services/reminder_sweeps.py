"""The reminders and the daily digests: the sweeps the beat runs every minute that plan
emails. They claim their interval like the clock's deadline sweep
(games.clock.services.sweeps: one conditional UPDATE of a SweepMark, one indexed range
query, batches handed to tasks), and a reminder is planned only if `reminder_at` is still
what the sweep saw (its Notification key makes a second email impossible anyway)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.clock.core import timing as timing
from games.clock.services import turn_clock as clock
from games.clock.services.sweeps import Enqueue, sweep
from games.game.core.game import EmailMode, Game
from games.mail.services import plan
from games.seats.core.seat import Seat

log = logging.getLogger(__name__)


def sweep_reminders(enqueue: Enqueue, now: datetime | None = None) -> int:
    return sweep("reminders", "reminder_at", enqueue, now)


def handle_reminders(batch: Sequence[Sequence[object]]) -> int:
    """Plan the due reminder of each game and set its next reminder time (one transaction
    per game)."""
    planned = 0
    for game_id, _version, seen in batch:
        try:
            planned += _remind_game(int(str(game_id)), datetime.fromisoformat(str(seen)))
        except Exception:  # one broken game (or a database blip) must not stop the batch;
            # its reminder_at is unchanged, so it comes back as lost (LOST_AFTER)
            log.exception("game %s: the reminder could not be planned", game_id)
    return planned


def _remind_game(game_id: int, seen: datetime) -> int:
    with transaction.atomic():
        # SKIP LOCKED: a game another worker reminds right now (the same batch twice,
        # two sweeps' overlapping batches) or a player moves in is not waited for.
        game = (Game.objects.select_for_update(skip_locked=True)
                .filter(pk=game_id, reminder_at=seen).first())
        if game is None:
            return 0  # handled already, or the turn moved on meanwhile
        now = timezone.now()
        rules = clock.reminder_rules(game, now)
        minutes = clock.turn_reminders(game, rules) if rules else []
        planned = len(remind(game, now, rules, minutes))
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
