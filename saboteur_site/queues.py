"""The Celery queues, one per kind of work, and which task goes to which
(docs/operations.md "Queues and workers").

Each queue gets worker units of its own (deploy/saboteur-worker-<queue>.service) with a
concurrency of its own, so one kind of work never waits behind another: a flood of bot
moves (CPU for seconds each) or a backlog of deadlines never holds up a turn email.

- mail: every email out, and the planning of a move's emails (the path of a turn email:
  follow_up_moves plans it, send_notification sends it), invitations, links, offers;
- inbound: replies to emails, parsed and played;
- bots: the bots' moves (CPU-bound: concurrency at most the cores);
- sweeps: the beat's sweeps and the per-game work they hand out (deadlines, reminders,
  open seats, open tables, tournaments, forgets, lost bot turns), and the ratings'
  outbox;
- digests: the daily digests and the moderators' report digests (a burst once a day).
"""

from __future__ import annotations

from kombu import Exchange, Queue

MAIL, INBOUND, BOTS, SWEEPS, DIGESTS = "mail", "inbound", "bots", "sweeps", "digests"
QUEUES = (MAIL, INBOUND, BOTS, SWEEPS, DIGESTS)

TASK_QUEUES: dict[str, str] = {
    "games.tasks.send_notification": MAIL,
    "games.tasks.follow_up_moves": MAIL,
    "games.tasks.requeue_unsent": MAIL,
    "games.tasks.plan_invitation": MAIL,
    "games.tasks.plan_deadline_missed": MAIL,
    "games.tasks.plan_home_email": MAIL,
    "games.tasks.send_links": MAIL,
    "games.tasks.offer_open_seat": MAIL,
    # Alerts by web push go out beside the emails (games.push).
    "games.tasks.send_push": MAIL,
    "games.tasks.sweep_pushes": MAIL,
    "games.tasks.process_inbound_mail": INBOUND,
    "games.tasks.play_bot_turn": BOTS,
    "games.tasks.sweep_deadlines": SWEEPS,
    "games.tasks.handle_deadlines": SWEEPS,
    "games.tasks.sweep_reminders": SWEEPS,
    "games.tasks.handle_reminders": SWEEPS,
    "games.tasks.sweep_bot_turns": SWEEPS,
    "games.tasks.sweep_open_seats": SWEEPS,
    "games.tasks.sweep_open_tables": SWEEPS,
    "games.tasks.sweep_forgets": SWEEPS,
    "games.tasks.sweep_unconfirmed_setups": SWEEPS,
    "games.tasks.sweep_lessons": SWEEPS,
    "games.tasks.sweep_challenges": SWEEPS,
    # Tournaments: rounds paired, each table a game made in the sweep (games.tournaments).
    "games.tasks.sweep_tournaments": SWEEPS,
    # The ratings' outbox (the beat, every FOLLOW_UP_SECONDS): no email waits on it.
    "games.tasks.rate_rounds": SWEEPS,
    "games.tasks.sweep_digests": DIGESTS,
    "games.tasks.sweep_report_digests": DIGESTS,
}


def task_routes() -> dict[str, dict[str, str]]:
    """CELERY_TASK_ROUTES: each task's queue by name."""
    return {task: {"queue": queue} for task, queue in TASK_QUEUES.items()}


def celery_queues(*, quorum: bool) -> tuple[Queue, ...]:
    """CELERY_TASK_QUEUES. `quorum` (RabbitMQ): quorum queues bound to topic exchanges,
    which Celery's native delayed delivery needs for a retry's countdown; elsewhere
    (Redis, the folder broker, memory) plain queues, each on its own direct exchange."""
    if not quorum:
        return tuple(Queue(name, Exchange(name), routing_key=name) for name in QUEUES)
    return tuple(Queue(name, Exchange(name, type="topic"), routing_key=name,
                       queue_arguments={"x-queue-type": "quorum"}) for name in QUEUES)
