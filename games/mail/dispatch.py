"""Hand work to the Celery tasks by their registered names (games.tasks), or do the
database part inline when the broker refuses.

The tasks module sits at the top of the dependency order (it calls the services), so
the services and the mail planning never import it: they look the task up in the
Celery app's registry by name. The worker and every Django process register the tasks
(games.apps imports games.tasks when the app is ready).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import current_app

log = logging.getLogger("games")


def enqueue(task_name: str, *args: Any, fallback: Callable[[], object] | None = None,
            countdown: float | None = None) -> None:
    """Queue `games.tasks.<task_name>(*args)` (after `countdown` seconds); if the broker
    cannot take it (it is down), run `fallback` now (the DB part) and let the beat's
    sweeps (`requeue_unsent`, `sweep_bot_turns`) finish the work later."""
    try:
        task = current_app.tasks[f"games.tasks.{task_name}"]
        if countdown is None:
            task.delay(*args)
        else:
            task.apply_async(args, countdown=countdown)
    except Exception:  # the broker refused: do the DB part now, send later
        log.exception("could not queue %s%s; planning inline", task_name, args)
        if fallback is not None:
            fallback()


def enqueue_sends(notification_ids: list[int]) -> None:
    """Send these new Notification rows (called on commit by games.mail.plan)."""
    for notification_id in notification_ids:
        enqueue("send_notification", notification_id)
