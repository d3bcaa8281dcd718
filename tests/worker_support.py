"""A real Celery worker in a test (celery.contrib.testing's `start_worker`) that stops at
once. Celery's blocking worker loop waits up to 2 s for a task before it looks whether it
should stop: stopping the worker after each test took that long (under a loaded machine,
3 s, a third of a browser test). `quick_to_stop` makes it wait 0.1 s at a time instead."""

from __future__ import annotations

from typing import Any

import pytest
from kombu import Connection

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
