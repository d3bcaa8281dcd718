"""A real Celery worker in a test (celery.contrib.testing's `start_worker`) that stops at
once. Celery's blocking worker loop waits up to 2 s for a task before it looks whether it
should stop: stopping the worker after each test took that long (under a loaded machine,
3 s, a third of a browser test). `quick_to_stop` makes it wait 0.1 s at a time instead.
And the test's logging stays as pytest has it (`leave_logging_alone`)."""

from __future__ import annotations

from typing import Any

import pytest
from kombu import Connection

from saboteur_site.celery import app

WAIT_FOR_A_TASK = 0.1  # seconds


def _short_waits(drain_events: Any) -> Any:
    def drain(self: Any, **kwargs: Any) -> Any:
        if kwargs.get("timeout") is not None:
            kwargs["timeout"] = min(kwargs["timeout"], WAIT_FOR_A_TASK)
        return drain_events(self, **kwargs)

    return drain


def quick_to_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every broker connection's wait for a task, for the rest of the test, is short."""
    monkeypatch.setattr(Connection, "drain_events", _short_waits(Connection.drain_events))


def leave_logging_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker started in this test sets up no logging of its own. Celery's would set
    the root logger to the test worker's level (ERROR) for the rest of the process, and
    the later tests' log capture (caplog) saw no warning: which tests failed depended on
    which ran after a worker's first start in the same process."""
    monkeypatch.setattr(app.log, "setup", lambda *_args, **_kwargs: None)
