"""The one way to hand work to the worker after a change: `queue_on_commit`.

`queue_on_commit(task, *args)` queues the Celery task `task(*args)` once the current
transaction commits (at once outside one), and never for a rolled-back one, so a worker
never reads a row that is not there yet (Zulip's `queue_event_on_commit` is the model).
Every task object is defined next to the service it runs; games.tasks lists them all.

If the broker cannot take the task (it is down), `fallback` does the database part right
away (e.g. writes the Notification rows, which stay pending) and the beat's sweeps finish
the work later (`requeue_unsent` sends pending emails, `sweep_bot_turns` moves bots,
the offer sweep sends offers): nothing is lost, nothing is done twice.

A move's own emails do not come through here: they ride the move's outbox row
(games.game.core.follow_up_rows.FollowUp), written in the move's transaction and planned by the
beat.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from celery import Task
from django.db import transaction

log = logging.getLogger("games")

Fallback = Callable[[], object]


def queue_on_commit(task: Task[Any, Any], *args: Any, fallback: Fallback | None = None,
                    countdown: float | None = None) -> None:
    """Queue `task(*args)` (to run `countdown` seconds later) once the transaction
    commits; if the broker refuses it then, run `fallback`."""
    transaction.on_commit(partial(_queue, task, args, fallback, countdown))


def _queue(task: Task[Any, Any], args: tuple[Any, ...], fallback: Fallback | None,
           countdown: float | None) -> None:
    try:
        if countdown is None:
            task.delay(*args)
        else:
            task.apply_async(args, countdown=countdown)
    except Exception:  # the broker refused: do the database part now, the rest later
        log.exception("could not queue %s%s; planning inline", task.name, args)
        if fallback is not None:
            fallback()
