"""Two beats (or two sweeping workers) at once: every due deadline is acted on once, every
due reminder planned once, every digest planned once (issue 49, "sweeps that share").

Real threads on real row locks: only meaningful on PostgreSQL, where the handlers claim a
game with FOR UPDATE SKIP LOCKED (games.clock.services.misses, games.mail.services.
reminder_sweeps) and the sweeps claim their interval with one conditional UPDATE
(games.clock.services.sweeps). pytest-django makes the test database and drops it after.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from games.clock.services import sweeps
from games.game.core.game import EmailMode, Game, Move
from games.game.core.talk_and_notices import GameNotice
from games.mail.core.notifications import Notification
from games.mail.services import reminder_sweeps
from games.seats.core.seat import Seat
from tests.support import START, make_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]
DAY = timedelta(hours=24)
ROUNDS = 4


def two_at_once(work: Callable[[int, int], None]) -> None:
    """work(sweeper, round) in two threads, each round started by both together."""
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def sweeper(number: int) -> None:
        try:
            for round_ in range(ROUNDS):
                barrier.wait(timeout=60)
                work(number, round_)
        except BaseException as error:  # the test fails with it, below
            failures.append(error)
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper, args=(n,)) for n in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures


def test_two_sweepers_at_once_act_on_every_due_deadline_and_reminder_once(clock: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite has no row locks")
    late = [make_game(players=3, seed=n, start=True).game for n in range(1, 7)]
    clock.move_to(START + DAY / 2)
    reminded = [make_game(players=3, seed=n, start=True).game for n in range(7, 13)]
    # Long past the deadlines of the first games: every sweep that claims an interval
    # hands them out again (the "lost" range), so both sweepers' batches hold them.
    clock.move_to(START + DAY + sweeps.LOST_AFTER + timedelta(minutes=1))
    now = timezone.now()
    assert all(g.reminder_at is not None and g.deadline_at is not None and now < g.deadline_at
               for g in Game.objects.filter(pk__in=[g.pk for g in reminded]))
    assert Game.objects.filter(pk__in=[g.pk for g in reminded], reminder_at__lte=now).count() == 6
    handed: Counter[str] = Counter()

    def sweep_and_handle(number: int, round_: int) -> None:
        # Each sweeper claims with its own `now` (two beats' clocks) and works off its
        # batches itself, as its worker would; a batch is also handled a second time (a
        # redelivered message) by the other sweeper.
        moment = now + timedelta(seconds=2 * round_ + number)
        deadline_batches: list[list[list[object]]] = []
        reminder_batches: list[list[list[object]]] = []
        sweeps.sweep_deadlines(deadline_batches.append, moment)
        reminder_sweeps.sweep_reminders(reminder_batches.append, moment)
        for batch in deadline_batches:
            handed["deadline rows"] += len(batch)
            sweeps.handle_deadlines(batch)
            sweeps.handle_deadlines(batch)
        for batch in reminder_batches:
            handed["reminder rows"] += len(batch)
            reminder_sweeps.handle_reminders(batch)
            reminder_sweeps.handle_reminders(batch)

    two_at_once(sweep_and_handle)
    # Every late game was handed out (more than once when the two sweeps' claims overlap,
    # as they do unless one sweeper finishes before the other starts; each batch is
    # handled twice anyway): what follows is that each was acted on once.
    assert handed["deadline rows"] >= len(late)
    timeouts = Counter(GameNotice.objects.filter(kind=GameNotice.Kind.TIMEOUT)
                       .values_list("game_id", flat=True))
    assert timeouts == Counter({g.pk: 1 for g in late})
    passes = Counter(Move.objects.filter(actor_kind="system").values_list("game_id", flat=True))
    assert passes == Counter({g.pk: 1 for g in late})
    assert all(g.version == 1 and g.deadline_at is not None and g.deadline_at > now for g in
               Game.objects.filter(pk__in=[g.pk for g in late]))
    reminders = Counter(Notification.objects.filter(kind=Notification.Kind.REMINDER)
                        .values_list("game_id", flat=True))
    assert reminders == Counter({g.pk: 1 for g in reminded})


@override_settings(DIGEST_HOUR=0)
def test_two_digest_sweeps_at_once_plan_one_digest_a_person(clock: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite has no row locks")
    games = [make_game(players=3, seed=n, start=True) for n in range(1, 5)]
    Seat.objects.filter(pk__in=[g.seats[0].pk for g in games]).update(
        email_mode=EmailMode.DAILY_DIGEST)
    clock.move_to(START + timedelta(hours=1))

    def sweep_digests(_number: int, _round: int) -> None:
        reminder_sweeps.sweep_digests()

    two_at_once(sweep_digests)
    digests = Notification.objects.filter(kind=Notification.Kind.DIGEST)
    assert list(digests.values_list("to_email", flat=True)) == ["p0@example.com"]


def test_a_game_another_worker_holds_is_skipped_not_waited_for(clock: Any) -> None:
    """The same batch in two workers: while one holds the game's row, the other's timeout
    does nothing at once (SKIP LOCKED) instead of queuing behind it; once the row is free
    the timeout applies, once."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite has no row locks")
    from django.db import transaction

    from games.clock.services.misses import miss_deadline

    game = make_game(players=3, seed=1, start=True).game
    clock.move_to(START + DAY)
    assert game.deadline_at is not None
    holding, release = threading.Event(), threading.Event()

    def other_worker() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                holding.set()
                release.wait(timeout=60)
        finally:
            connection.close()

    thread = threading.Thread(target=other_worker)
    thread.start()
    try:
        assert holding.wait(timeout=60)
        with connection.cursor() as cursor:  # waiting would fail the test, not hang it
            cursor.execute("SET lock_timeout = '20s'")
        assert miss_deadline(game.pk, 0, game.deadline_at) == ""
        assert not Move.objects.filter(game=game).exists()
    finally:
        release.set()
        thread.join()
    assert miss_deadline(game.pk, 0, game.deadline_at) == "passed"
    assert miss_deadline(game.pk, 0, game.deadline_at) == ""
    assert Move.objects.filter(game=game, actor_kind="system").count() == 1
