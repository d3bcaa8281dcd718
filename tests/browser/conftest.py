"""The browser tests' server side, as production runs it: the live server answers the
pages, and a real Celery worker (in a thread, on the in-memory broker) runs every task the
pages queue: the invitations' and the other emails, the bots' turns. `worker.settle()`
waits (on a condition, never a sleep) until it has run everything queued so far."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun, task_received

from saboteur_site.celery import app
from tests.support import queued_tasks_waiting


class Worker:
    """Counts the tasks the worker has taken (a bot's turn waiting for its countdown
    included) and not finished yet."""

    def __init__(self) -> None:
        self.taken = 0
        self.changed = threading.Condition()

    def received(self, **_kwargs: Any) -> None:
        with self.changed:
            self.taken += 1
            self.changed.notify_all()

    def finished(self, **_kwargs: Any) -> None:
        with self.changed:
            self.taken -= 1
            self.changed.notify_all()

    def settle(self, timeout: float = 30) -> None:
        """Until no task is queued, waiting or running."""
        with self.changed:
            assert self.changed.wait_for(
                lambda: self.taken == 0 and not queued_tasks_waiting(), timeout=timeout)


@pytest.fixture(autouse=True)
def worker(transactional_db: None, settings: Any) -> Iterator[Worker]:
    settings.BOT_MOVE_DELAY_SECONDS = 1  # a bot answers a second after the move, not three
    saved = app.conf.broker_transport_options
    app.conf.update(worker_hijack_root_logger=False,
                    broker_transport_options={"polling_interval": 0.05})
    tracker = Worker()
    task_received.connect(tracker.received, weak=False)
    task_postrun.connect(tracker.finished, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
            yield tracker
    finally:
        task_received.disconnect(tracker.received)
        task_postrun.disconnect(tracker.finished)
        app.conf.update(broker_transport_options=saved)
