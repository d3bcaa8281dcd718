"""Follow-up work after a change to a game is committed: the seams for notifications.

`games.play.services` calls these through `transaction.on_commit`, so they run only once
the change is durable and never for a rolled-back one. They take ids, not model
instances, and hand straight over to Celery tasks (games.tasks, queued by name
through games.mail.dispatch), which plan the
emails (Notification rows with unique keys) and send them. A move's own emails are the
exception: planned from its outbox row (games.play.move_emails), nothing is published.

If the broker cannot take a task (it is down), the planning is done right here
instead: the Notification rows are written and stay pending, and the beat's
`requeue_unsent` sends them once the broker is back. Nothing is lost, nothing is
sent twice.

Never log a seat link: it is the seat's credential. (The invitation's link is not
even put into the broker: the task rebuilds it from the seat, games.links.)
"""

from __future__ import annotations

import logging
import threading

from celery import current_app
from django.conf import settings
from django.db.models import F

from games.mail import plan
from games.mail.dispatch import enqueue
from games.models import Game, Seat, SeatKind
from games.play import move_emails
from games.play.clock import ABSENT_AFTER_MISSES

log = logging.getLogger("games")
# Bot turns waiting to run in this thread when tasks run eagerly (tests, a shell): run one
# after the other instead of each inside the previous one's commit, which would nest a
# whole all-bot game in one call stack.
_eager = threading.local()


def after_move_committed(game_id: int, version: int, bot_next: bool | None = None) -> None:
    """A move (by a seat, a bot, the system or a moderator) made the game reach `version`.
    `bot_next`: whether a bot is to act now, when the caller knows (None: look it up).

    Its emails are planned from the outbox row the move wrote (games.play.move_emails): by
    the beat's `follow_up_moves` within FOLLOW_UP_SECONDS, so the request publishes
    nothing; where tasks run eagerly (tests, a shell), right here."""
    log.debug("game %s: move committed, now version %s", game_id, version)
    if current_app.conf.task_always_eager:
        move_emails.follow_up_game(game_id)
    queue_bot_turn(game_id, version, bot_next)


def bot_to_act(game_id: int, version: int) -> bool:
    return Seat.objects.filter(
        game_id=game_id, kind=SeatKind.BOT, number=F("game__actor"),
        game__version=version, game__status=Game.Status.ACTIVE).exists()


def queue_bot_turn(game_id: int, version: int, bot_next: bool | None = None) -> None:
    """If a bot is to act at `version`, have it move a few seconds from now (games.play.bot_turns).
    The bot's task checks the version again, so a stale `bot_next` does no harm."""
    if not (bot_to_act(game_id, version) if bot_next is None else bot_next):
        return
    if not current_app.conf.task_always_eager:
        enqueue("play_bot_turn", game_id, version, countdown=settings.BOT_MOVE_DELAY_SECONDS)
        return
    pending: list[tuple[int, int]] | None = getattr(_eager, "pending", None)
    if pending is not None:
        pending.append((game_id, version))
        return
    _eager.pending = [(game_id, version)]
    try:
        while _eager.pending:
            enqueue("play_bot_turn", *_eager.pending.pop(0))
    finally:
        _eager.pending = None


def after_game_started(game_id: int) -> None:
    """The game left setup: seat `state.actor` is to act at version 0."""
    log.debug("game %s: started", game_id)
    version = Game.objects.values_list("version", flat=True).get(pk=game_id)
    after_move_committed(game_id, version)


def send_invitation(seat_id: int) -> None:
    """Invite the player of `seat_id`; the email carries their own link, rebuilt from the
    seat when it is written (never passed through the broker)."""
    log.debug("seat %s: invitation ready", seat_id)
    enqueue("plan_invitation", seat_id,
            fallback=lambda: plan.create(plan.invitation(Seat.objects.get(pk=seat_id))))


def after_deadline_missed(game_id: int, version: int, seat_id: int) -> None:
    """The server applied the timeout policy to turn `version` of the game (seat_id's)."""
    log.debug("game %s: deadline of version %s missed", game_id, version)
    enqueue("plan_deadline_missed", game_id, version, seat_id,
            fallback=lambda: plan_deadline_missed_rows(game_id, version, seat_id))


def plan_deadline_missed_rows(game_id: int, version: int, seat_id: int) -> list[int]:
    """The missed-deadline email's rows (also the task's body, games.tasks)."""
    game = Game.objects.get(pk=game_id)
    seat = Seat.objects.get(pk=seat_id)
    return plan.queue(plan.deadline_missed(game, seat, version, ABSENT_AFTER_MISSES))
