"""The browser tests' fixtures. One browser (Debian's Chromium, as its headless shell where
that is installed, driven by Playwright) for the whole session, and pytest-django's one
live server: each test opens its own pages or contexts and closes them, so nothing of a
page outlives its test. The server side as production runs it: the live server answers
the pages, and a real Celery worker (in a thread, on the in-memory broker) runs every task
the pages queue: the invitations' and the other emails, the bots' turns.
`worker.settle()` waits (on a condition, never a sleep) until it has run everything queued
so far."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import after_task_publish, task_postrun, task_prerun, task_received

from saboteur_site.celery import app
from tests.support import queued_tasks_waiting
from tests.worker_support import leave_logging_alone, quick_to_stop

CHROMIUM = Path("/usr/bin/chromium")
# Debian's build of the same Chromium without the desktop browser around it
# (`apt-get install chromium-headless-shell`): what Playwright itself runs for headless
# pages. Its Blink and V8 are Chromium's; it costs half the CPU per page and a third per
# context (measured in bench/README.md), and the browser tests' CPU was a third of the
# suite's. Where it is missing, the pages run in Chromium itself.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright's driver, for the whole session.

    Playwright's sync API keeps an event loop running in this thread from its start to its
    end, and Django refuses database work where a loop runs (the live server's work is in
    its own thread; the tests' and the database flush after each one are in this one,
    never inside the loop): DJANGO_ALLOW_ASYNC_UNSAFE is set for as long as the driver
    lives, and put back as it was after. The project has no async code that this check
    could guard."""
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as driver:
            yield driver
    finally:
        if before is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


def launch(playwright: Any, executable: Path) -> Any:
    # No GPU process: headless Chromium would emulate one in software (SwiftShader) to
    # composite each page, about a tenth of the browser tests' CPU (measured over
    # tests/browser/test_pages.py and test_seat_truth.py).
    return playwright.chromium.launch(executable_path=str(executable),
                                      args=["--no-sandbox", "--disable-gpu"])


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """One browser for every browser test of the session (a launch costs seconds): the
    headless shell where it is installed, else Chromium."""
    chromium = launch(playwright, HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def full_browser(playwright: Any) -> Iterator[Any]:
    """Chromium itself, launched for the tests that need what the headless shell has not
    got: a service worker that shows a notification (the web push alerts)."""
    chromium = launch(playwright, CHROMIUM)
    yield chromium
    chromium.close()


@pytest.fixture(autouse=True)
def plain_http_cookies(settings: Any) -> None:
    """The live server speaks plain HTTP: cookies marked Secure (production) would never
    come back, and every form would fail its CSRF check."""
    settings.CSRF_COOKIE_SECURE = False
    settings.SESSION_COOKIE_SECURE = False


class Worker:
    """Counts the tasks sent and not yet run to their end, and the tasks the worker has
    taken (a bot's turn waiting for its countdown included) and not finished yet.

    Both counts: the in-memory queue is empty, and nothing is taken yet, for the moment
    between the worker pulling a message and telling that it received it (a settle in
    that moment saw an idle worker under a loaded machine); a message sent and not yet
    finished closes it."""

    def __init__(self) -> None:
        self.taken = 0
        self.sent = 0
        self.ended = 0
        self.changed = threading.Condition()
        self.open = threading.Event()
        self.open.set()

    def published(self, **_kwargs: Any) -> None:
        with self.changed:
            self.sent += 1
            self.changed.notify_all()

    def received(self, **_kwargs: Any) -> None:
        with self.changed:
            self.taken += 1
            self.changed.notify_all()

    def finished(self, **_kwargs: Any) -> None:
        with self.changed:
            self.taken -= 1
            self.ended += 1
            self.changed.notify_all()

    def starting(self, **_kwargs: Any) -> None:
        """Before each task: waits while the test holds the worker."""
        assert self.open.wait(timeout=30), "the worker was held for 30 s"

    @contextmanager
    def held(self) -> Iterator[None]:
        """No task starts until the block ends (they queue, and run after it): what a
        page shows before a bot answers, however fast the bot."""
        self.open.clear()
        try:
            yield
        finally:
            self.open.set()

    def settle(self, timeout: float = 30) -> None:
        """Until no task is sent and unfinished, queued, waiting or running."""
        with self.changed:
            assert self.changed.wait_for(
                lambda: self.taken == 0 and self.ended >= self.sent
                and not queued_tasks_waiting(), timeout=timeout)


@pytest.fixture(autouse=True)
def worker(transactional_db: None, settings: Any,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[Worker]:
    settings.BOT_MOVE_DELAY_SECONDS = 0  # a bot answers at once, not three seconds after
    quick_to_stop(monkeypatch)
    leave_logging_alone(monkeypatch)
    saved = app.conf.broker_transport_options
    app.conf.update(worker_hijack_root_logger=False,
                    broker_transport_options={"polling_interval": 0.05})
    tracker = Worker()
    after_task_publish.connect(tracker.published, weak=False)
    task_received.connect(tracker.received, weak=False)
    task_prerun.connect(tracker.starting, weak=False)
    task_postrun.connect(tracker.finished, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
            yield tracker
    finally:
        after_task_publish.disconnect(tracker.published)
        task_received.disconnect(tracker.received)
        task_prerun.disconnect(tracker.starting)
        task_postrun.disconnect(tracker.finished)
        app.conf.update(broker_transport_options=saved)
