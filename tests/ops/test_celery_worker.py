"""A real Celery worker (celery.contrib.testing, in a thread) on an in-memory broker, and
on Redis when one answers (CELERY_TEST_REDIS_URL, default redis://127.0.0.1:6379/15;
skipped cleanly otherwise). Tasks go through the broker: nothing runs eagerly here.

Waiting for the worker uses Celery's task_postrun signal and a condition variable,
never a sleep.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.core import mail
from django.test import override_settings
from django.utils import timezone

from games import tasks
from games.game.core.game import Game, Move
from games.mail.core.notifications import Notification
from games.mail.services import plan
from saboteur_site.celery import app, beat_schedule
from tests.email_support import FlakyBackend
from tests.support import make_game, redis_answers
from tests.worker_support import leave_logging_alone, quick_to_stop

REDIS_URL = os.environ.get("CELERY_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")

QUEUE = f"test-{uuid.uuid4().hex}"


def forget_connections() -> None:
    """Drop what the app cached for the previous broker: its connection pool and its
    amqp helper (which caches the queues and the producer pool)."""
    app._pool = None  # type: ignore[attr-defined]
    app.__dict__.pop("amqp", None)


class Finished:
    """Tasks the worker has finished, by name; wait_for blocks until enough have."""

    def __init__(self) -> None:
        self.done: list[tuple[str, str]] = []
        self.changed = threading.Condition()

    def __call__(self, sender: Any = None, task: Any = None, state: str | None = None,
                 **kwargs: Any) -> None:
        with self.changed:
            self.done.append((task.name if task else "", state or ""))
            self.changed.notify_all()

    def count(self, name: str, state: str = "SUCCESS") -> int:
        return sum(1 for n, s in self.done if n == name and s == state)

    def wait_for(self, name: str, count: int, state: str = "SUCCESS") -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.count(name, state) >= count, timeout=30), \
                self.done


@pytest.fixture(params=["memory", "redis"])
def worker(request: pytest.FixtureRequest, transactional_db: None,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[Finished]:
    if request.param == "redis" and not redis_answers(REDIS_URL):
        pytest.skip(f"no Redis at {REDIS_URL}")
    broker = "memory://" if request.param == "memory" else REDIS_URL
    saved = {key: app.conf[key] for key in (
        "broker_url", "task_always_eager", "task_default_queue",
        "worker_hijack_root_logger", "broker_transport_options")}
    app.conf.update(broker_url=broker, task_always_eager=False,
                    task_default_queue=QUEUE,  # parallel test runs on one Redis never mix
                    worker_hijack_root_logger=False,
                    broker_transport_options={"polling_interval": 0.05})
    forget_connections()
    quick_to_stop(monkeypatch)
    leave_logging_alone(monkeypatch)
    finished = Finished()
    task_postrun.connect(finished, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
            yield finished
    finally:
        task_postrun.disconnect(finished)
        app.conf.update(saved)
        forget_connections()


def test_a_real_worker_sends_the_emails_of_a_new_game(worker: Finished) -> None:
    # Committed: the invitations' rows are written with the game, their sends queued.
    g = make_game(players=3, seed=1, start=True, invite=True)
    tasks.follow_up_moves.delay()  # what the beat does every FOLLOW_UP_SECONDS
    worker.wait_for("games.tasks.send_notification", 4)
    assert worker.count("games.tasks.plan_invitation") == 0
    assert sorted(Notification.objects.values_list("kind", "status")) == [
        ("invitation", "sent")] * 3 + [("turn", "sent")]
    assert len(mail.outbox) == 4
    turn = Notification.objects.get(kind="turn")
    for _ in range(2):  # a task delivered twice sends nothing more
        tasks.send_notification.delay(turn.pk)
    worker.wait_for("games.tasks.send_notification", 6)
    assert len(mail.outbox) == 4
    assert f"/play/{g.tokens[0]}/" in mail.outbox[-1].body


@override_settings(EMAIL_BACKEND="tests.email_support.FlakyBackend", EMAIL_RETRY_SECONDS=0)
def test_the_worker_retries_after_a_provider_error_and_sends_once(worker: Finished) -> None:
    FlakyBackend.arm(failures=0)  # no failure left over from a test before this one
    g = make_game(players=3, seed=2, start=True, invite=True)
    tasks.follow_up_moves.delay()
    worker.wait_for("games.tasks.send_notification", 4)
    FlakyBackend.arm(failures=1)
    [note_id] = plan.create([plan.Spec(key="turn:again", kind="turn", to_email="p0@example.com",
                                       game_id=g.game.pk, seat_id=g.seats[0].pk,
                                       params={"version": 0})])
    tasks.send_notification.delay(note_id)
    worker.wait_for("games.tasks.send_notification", 1, state="RETRY")
    worker.wait_for("games.tasks.send_notification", 5)
    note = Notification.objects.get(pk=note_id)
    assert note.status == "sent" and note.attempts == 2
    assert FlakyBackend.calls == 2
    assert len(mail.outbox) == 5


def test_the_deadline_sweep_through_the_worker(worker: Finished) -> None:
    g = make_game(players=3, seed=3, start=True, invite=True)
    tasks.follow_up_moves.delay()
    worker.wait_for("games.tasks.send_notification", 4)
    Game.objects.filter(pk=g.game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    tasks.sweep_deadlines.delay()
    worker.wait_for("games.tasks.handle_deadlines", 1)
    move = Move.objects.get(game=g.game, number=1)
    assert move.actor_kind == "system" and move.move["type"] == "pass"
    tasks.follow_up_moves.delay()  # the next turn's email
    worker.wait_for("games.tasks.send_notification", 6)  # missed + next turn
    assert {n.kind for n in Notification.objects.filter(status="sent")} >= {"missed", "turn"}


def test_the_beat_schedule() -> None:
    schedule = beat_schedule(60, 2)
    assert {entry["task"] for entry in schedule.values()} == {
        "games.tasks.follow_up_moves", "games.tasks.sweep_deadlines", "games.tasks.sweep_reminders",
        "games.tasks.sweep_digests", "games.tasks.requeue_unsent", "games.tasks.sweep_bot_turns",
        "games.tasks.sweep_open_seats", "games.tasks.sweep_forgets",
        "games.tasks.sweep_unconfirmed_setups", "games.tasks.sweep_open_tables",
        "games.tasks.sweep_report_digests", "games.tasks.sweep_tournaments",
        "games.tasks.rate_rounds", "games.tasks.sweep_pushes", "games.tasks.sweep_lessons",
        "games.tasks.sweep_challenges"}
    assert schedule["deadlines"]["schedule"] == 60.0
    assert schedule["follow_ups"]["schedule"] == 2.0
    assert all(name in app.tasks for name in
               ("games.tasks.sweep_deadlines", "games.tasks.handle_deadlines",
                "games.tasks.send_notification", "games.tasks.sweep_unconfirmed_setups",
                "games.tasks.sweep_open_tables", "games.tasks.plan_home_email",
                "games.tasks.sweep_report_digests"))
    assert app.conf.beat_schedule.keys() == schedule.keys()
