"""Deadlines, reminders, digests and vacations: the sweeps the beat runs every minute.

A sweep does not work through games itself. It claims what is due with one bulk
UPDATE (an indexed range on (status, deadline_at) or (status, reminder_at)): the
claimed rows get a *claim token* written into that column, a moment a little in the
future, unique to this sweep. One indexed SELECT reads back exactly the rows carrying
the token, and the per-game work is enqueued in batches (`handle_deadlines`,
`handle_reminders`). Because the token lies in the future the next sweep does not
see those games again; if a batch is lost (a worker died) the token passes and the
games come back due: nothing is dropped, nothing waits in the broker for a day.

Per game, the work is conditional: the timeout (services.miss_deadline) only
applies if the game is still at the claimed version with the token as its deadline,
so a player who moved meanwhile wins, and a batch run twice does nothing the second
time. Reminders check the token the same way, and their Notification keys make a
second run send nothing.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from . import clock
from .models import EmailMode, Game, GameNotice, Seat
from .notifications import plan
from .services import ServiceError, miss_deadline

log = logging.getLogger("games.deadlines")

CLAIM_LEASE = timedelta(minutes=10)  # a lost batch comes back after this
BATCH = 200  # games per task
SWEEP_LIMIT = 50_000  # games claimed per sweep at most (the next sweep takes the rest)

Enqueue = Callable[[list[list[int]], str], object]


def claim_token(now: datetime) -> datetime:
    """A moment after the lease, made unique to this sweep by random microseconds."""
    return (now + CLAIM_LEASE).replace(microsecond=secrets.randbelow(1_000_000))


def batches(rows: Sequence[tuple[int, int]], size: int = BATCH) -> list[list[list[int]]]:
    return [[list(r) for r in rows[i:i + size]] for i in range(0, len(rows), size)]


# ---- deadlines -------------------------------------------------------------------------


def claim_due_deadlines(now: datetime, limit: int = SWEEP_LIMIT) -> tuple[datetime,
                                                                          list[tuple[int, int]]]:
    """Claim the active games whose deadline passed: (token, [(game id, version)])."""
    active = Game.objects.filter(status=Game.Status.ACTIVE)
    due = active.filter(deadline_at__lte=now).order_by("deadline_at").values("pk")[:limit]
    token = claim_token(now)
    # The outer conditions again: a game whose player moved in between is not due any more.
    active.filter(pk__in=due, deadline_at__lte=now).update(deadline_at=token)
    return token, list(active.filter(deadline_at=token).values_list("pk", "version"))


def sweep_deadlines(enqueue: Enqueue, now: datetime | None = None) -> int:
    token, claimed = claim_due_deadlines(now or timezone.now())
    for batch in batches(claimed):
        enqueue(batch, token.isoformat())
    if claimed:
        log.info("deadline sweep: %s games due", len(claimed))
    return len(claimed)


def handle_deadlines(batch: Sequence[Sequence[int]], token: str) -> dict[str, int]:
    """Apply the timeout policy to each claimed game (one transaction per game)."""
    claimed = datetime.fromisoformat(token)
    counts = {"passed": 0, "waiting": 0, "": 0}
    for game_id, version in batch:
        try:
            counts[miss_deadline(game_id, version, claimed)] += 1
        except Exception:  # one broken game must not stop the batch; its lease expires
            log.exception("game %s: the missed deadline could not be handled", game_id)
    return counts


# ---- reminders -------------------------------------------------------------------------


def claim_due_reminders(now: datetime, limit: int = SWEEP_LIMIT) -> tuple[datetime, list[int]]:
    active = Game.objects.filter(status=Game.Status.ACTIVE)
    due = active.filter(reminder_at__lte=now).order_by("reminder_at").values("pk")[:limit]
    token = claim_token(now)
    active.filter(pk__in=due, reminder_at__lte=now).update(reminder_at=token)
    return token, list(active.filter(reminder_at=token).values_list("pk", flat=True))


def sweep_reminders(enqueue: Callable[[list[int], str], object],
                    now: datetime | None = None) -> int:
    token, claimed = claim_due_reminders(now or timezone.now())
    for i in range(0, len(claimed), BATCH):
        enqueue(claimed[i:i + BATCH], token.isoformat())
    return len(claimed)


def handle_reminders(game_ids: Sequence[int], token: str) -> int:
    """Plan the due reminder of each claimed game and set its next reminder time."""
    claimed = datetime.fromisoformat(token)
    planned = 0
    for game_id in game_ids:
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=game_id,
                                                           reminder_at=claimed).first()
            if game is None:
                continue  # the turn moved on (or a moderator reset the clock) meanwhile
            now = timezone.now()
            planned += len(remind(game, now))
            game.reminder_at = clock.next_reminder_at(game.deadline_at, game.reminder_hours, now)
            Game.objects.filter(pk=game_id).update(reminder_at=game.reminder_at)
    return planned


def remind(game: Game, now: datetime) -> list[int]:
    hours = clock.due_reminder(game.deadline_at, game.reminder_hours, now)
    if hours is None or game.actor is None or game.status != Game.Status.ACTIVE:
        return []
    seat = Seat.objects.get(game=game, number=game.actor)
    times = clock.reminder_times(game.deadline_at, game.reminder_hours) if game.deadline_at else []
    last = hours == min(h for h, _at in times)
    return plan.queue(plan.reminder(game, seat, hours, last))


# ---- daily digests -----------------------------------------------------------------------


def sweep_digests(now: datetime | None = None) -> int:
    """Plan today's digest for each address with a digest-mode seat to act, once its
    local time has reached DIGEST_HOUR. One per address and local day (the key)."""
    now = now or timezone.now()
    waiting = (Seat.objects.filter(email_mode=EmailMode.DAILY_DIGEST, email_problem_at=None,
                                   game__status=Game.Status.ACTIVE, game__actor=F("number"))
               .order_by("email", "-created_at"))
    first: dict[str, Seat] = {}
    for seat in waiting:
        first.setdefault(seat.email.strip().lower(), seat)  # newest seat: language, zone
    specs = []
    for seat in first.values():
        local = timezone.localtime(now, seat.zone)
        if local.hour >= settings.DIGEST_HOUR:
            specs += plan.digest(seat.email, seat, local.date())
    with transaction.atomic():
        return len(plan.queue(specs))


# ---- vacations ---------------------------------------------------------------------------


def take_vacation(seat_id: int, length: timedelta) -> Seat:
    """Start a vacation now: the seat's clock stops for `length`, taken from its budget.

    The whole length is charged at once (it is calendar time, whoever's turn it is);
    ending early gives back what is left. If it is the seat's turn, the deadline moves
    by `length`; if its turn comes during the vacation, the clock starts when it ends.
    """
    now = timezone.now()
    with transaction.atomic():
        game, seat = _lock_seat(seat_id)
        if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
            raise ServiceError("game_over", _("The game is over."))
        if seat.vacation_until is not None and seat.vacation_until > now:
            raise ServiceError("on_vacation", _("You are already on vacation."))
        if length <= timedelta() or length > seat.vacation_left:
            raise ServiceError("no_vacation_left", _("That is more vacation than you have left."))
        seat.vacation_until = now + length
        seat.vacation_left -= length
        seat.save(update_fields=["vacation_until", "vacation_left"])
        _shift_deadline(game, seat, length, now)
        _notice(game, {"seat": seat.number, "until": seat.vacation_until.isoformat(),
                       "hours": round(length.total_seconds() / 3600, 1)})
    return seat


def end_vacation(seat_id: int) -> Seat:
    """End the seat's vacation early: the unused time goes back to its budget."""
    now = timezone.now()
    with transaction.atomic():
        game, seat = _lock_seat(seat_id)
        if seat.vacation_until is None or seat.vacation_until <= now:
            raise ServiceError("not_on_vacation", _("You are not on vacation."))
        unused = seat.vacation_until - now
        seat.vacation_left += unused
        seat.vacation_until = None
        seat.save(update_fields=["vacation_until", "vacation_left"])
        _shift_deadline(game, seat, -unused, now)
        _notice(game, {"seat": seat.number, "ended": True})
    return seat


def _notice(game: Game, params: dict[str, object]) -> None:
    log_at = len(game.snapshot.get("log", []))  # where the line sits in the game log
    GameNotice.objects.create(game=game, version=game.version, kind=GameNotice.Kind.VACATION,
                              params={**params, "log_at": log_at})


def _lock_seat(seat_id: int) -> tuple[Game, Seat]:
    game_id = Seat.objects.values_list("game_id", flat=True).get(pk=seat_id)
    game = Game.objects.select_for_update().get(pk=game_id)  # the game first, always
    return game, Seat.objects.select_for_update().get(pk=seat_id)


def _shift_deadline(game: Game, seat: Seat, delta: timedelta, now: datetime) -> None:
    """Move the deadline of the seat's running turn (its clock is paused meanwhile)."""
    if (game.status != Game.Status.ACTIVE or game.actor != seat.number
            or game.deadline_at is None):
        return
    game.deadline_at = max(game.deadline_at + delta, now)
    game.reminder_at = clock.next_reminder_at(game.deadline_at, game.reminder_hours, now)
    game.save(update_fields=["deadline_at", "reminder_at", "updated_at"])
