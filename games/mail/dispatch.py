"""Hand work to a Celery task, or do the database part inline when the broker refuses.

Every caller queues its own task object (defined next to the service it runs: the
send task in games.mail.send, a bot's turn in games.play.moves, ...); games.tasks lists
them all for the worker.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import Task

log = logging.getLogger("games")


def enqueue(task: Task[Any, Any], *args: Any, fallback: Callable[[], object] | None = None,
            countdown: float | None = None) -> None:
    """Queue `task(*args)` (after `countdown` seconds); if the broker cannot take it (it is
    down), run `fallback` now (the database part) and let the beat's sweeps
    (`requeue_unsent`, `sweep_bot_turns`) finish the work later."""
    try:
        if countdown is None:
            task.delay(*args)
        else:
            task.apply_async(args, countdown=countdown)
    except Exception:  # the broker refused: do the DB part now, send later
        log.exception("could not queue %s%s; planning inline", task.name, args)
        if fallback is not None:
            fallback()
