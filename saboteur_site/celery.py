"""The Celery app: broker from CELERY_BROKER_URL (settings), tasks in games/tasks.py.

Run one beat (the schedule below) and any number of workers:

    celery -A saboteur_site worker --loglevel INFO
    celery -A saboteur_site beat --loglevel INFO

The beat only sends small sweep tasks; each sweep claims what is due with a few bulk
UPDATEs and hands the per-game work to other tasks (games.clock.services.sweeps). Nothing waits
in the broker for a day: deadlines live in the database, so a restart loses nothing.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.settings")
# filesystem:// (the embedded default) means our safer version of kombu's transport.
TRANSPORT_ALIASES["filesystem"] = "saboteur_site.broker:Transport"

app = Celery("saboteur_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["games"])


@after_setup_logger.connect
@after_setup_task_logger.connect
def redact_worker_logs(logger: logging.Logger, **_kwargs: object) -> None:
    """A worker and the beat set up logging of their own (they replace the root logger's
    handlers): put the seat-token filter on every handler they made, as settings.LOGGING
    does for the web processes."""
    from saboteur_site.log_redaction import RedactSecretsFilter

    for handler in logger.handlers:
        if not any(isinstance(f, RedactSecretsFilter) for f in handler.filters):
            handler.addFilter(RedactSecretsFilter())


def beat_schedule(sweep_seconds: int, follow_up_seconds: int) -> dict[str, dict[str, object]]:
    # A sweep that could not run in time is dropped (expires): the next one does its work.
    every = {"schedule": float(sweep_seconds), "options": {"expires": sweep_seconds * 0.9}}
    return {
        # The emails of the moves made since the last run (games.mail.services.move_emails).
        "follow_ups": {"task": "games.tasks.follow_up_moves",
                       "schedule": float(follow_up_seconds),
                       "options": {"expires": follow_up_seconds * 0.9}},
        # The rounds of rated games ended since (games.ratings.services.rating_outbox).
        "rated_rounds": {"task": "games.tasks.rate_rounds",
                         "schedule": float(follow_up_seconds),
                         "options": {"expires": follow_up_seconds * 0.9}},
        "deadlines": {"task": "games.tasks.sweep_deadlines", **every},
        "reminders": {"task": "games.tasks.sweep_reminders", **every},
        "bot_turns": {"task": "games.tasks.sweep_bot_turns", **every},
        "digests": {"task": "games.tasks.sweep_digests", "schedule": 15 * 60.0,
                    "options": {"expires": 14 * 60.0}},
        # Open seats (games.handover.services.offers): absent seats opened, the next offers.
        "open_seats": {"task": "games.tasks.sweep_open_seats", "schedule": 5 * 60.0,
                       "options": {"expires": 4 * 60.0}},
        # Requests to be forgotten that wait for games to end (games.home.services.forget).
        "forgets": {"task": "games.tasks.sweep_forgets", "schedule": 5 * 60.0,
                    "options": {"expires": 4 * 60.0}},
        # Setups their host did not confirm in time (games.setup.services.web_setup), deleted.
        "unconfirmed_setups": {"task": "games.tasks.sweep_unconfirmed_setups",
                               "schedule": 60 * 60.0, "options": {"expires": 59 * 60.0}},
        # Lessons nobody moved in for days (games.learn.services.lessons), deleted.
        "lessons": {"task": "games.tasks.sweep_lessons", "schedule": 60 * 60.0,
                    "options": {"expires": 59 * 60.0}},
        # Reports of table talk that waited for their game's hourly digest to moderators.
        "report_digests": {"task": "games.tasks.sweep_report_digests", **every},
        # Open tables whose wait has ended: started with bots or expired (games.tables).
        "open_tables": {"task": "games.tasks.sweep_open_tables", **every},
        # Challenges past their days without every answer, expired (games.challenges).
        "challenges": {"task": "games.tasks.sweep_challenges", "schedule": 60 * 60.0,
                       "options": {"expires": 59 * 60.0}},
        # Tournaments: rounds paired, events started and ended (games.tournaments).
        "tournaments": {"task": "games.tasks.sweep_tournaments", **every},
        # Every minute: a dead worker's email goes out within EMAIL_TIMEOUT + margin + 1 min.
        "unsent": {"task": "games.tasks.requeue_unsent", **every},
        # Push alerts due (held, retried, or lost): games.push.services.sending.
        "pushes": {"task": "games.tasks.sweep_pushes", **every},
    }


@app.on_after_configure.connect
def _configure(sender: Celery, **kwargs: object) -> None:
    from django.conf import settings

    sender.conf.beat_schedule = beat_schedule(settings.SWEEP_SECONDS,
                                              settings.FOLLOW_UP_SECONDS)
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    for key in ("data_folder_in", "data_folder_out", "control_folder"):
        if key in options:  # the filesystem broker needs its folders to exist
            Path(str(options[key])).mkdir(parents=True, exist_ok=True)
