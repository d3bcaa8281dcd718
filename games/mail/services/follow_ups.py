"""Follow-up work after a change to a game is committed, other than a move's.

A game's setup calls these inside its transaction, and a missed deadline's event
(games.mail.services.clock_mail) inside the clock's; each queues its task with
`games.kit.after_commit.queue_on_commit`, so it runs only once the change is durable and
never for a rolled-back one. They take ids,
not model instances, and the Celery tasks (defined here) plan the emails (Notification
rows with unique keys) and send them. An invitation's row is written in the transaction
itself (its sending waits for the commit): it must come before the game's turn emails.
A move's own emails are planned from its outbox row by the beat (games.mail.services.move_emails),
and a bot's turn after a move is queued by the move itself (games.moves.services.moves).

If the broker cannot take a task (it is down), the planning is done right here
instead: the Notification rows are written and stay pending, and the beat's
`requeue_unsent` sends them once the broker is back. Nothing is lost, nothing is
sent twice.

Never log a seat link: it is the seat's credential. (The invitation's link is not
even put into the broker: the letter rebuilds it from the seat, games.seats.core.links.)
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction

from games.clock.services.turn_clock import ABSENT_AFTER_MISSES
from games.game.core.game import Game
from games.kit.after_commit import queue_on_commit
from games.mail.services import plan
from games.moves.services.moves import queue_bot_turn
from games.seats.core.seat import Seat

log = logging.getLogger("games")


def after_game_started(game_id: int, version: int) -> None:
    """The game left setup: seat `state.actor` is to act at `version` (a bot, maybe)."""
    log.debug("game %s: started", game_id)
    queue_bot_turn(game_id, version)


@shared_task(name="games.tasks.plan_invitation")
def plan_invitation(seat_id: int) -> int:
    """An invitation planned by a task: what a version before this one queued (a deploy
    may find such messages in the broker); send_invitation plans it in the transaction."""
    with transaction.atomic():
        seat = Seat.objects.filter(pk=seat_id).first()
        return len(plan.queue(plan.invitation(seat))) if seat else 0


def send_invitation(seat_id: int) -> None:
    """Invite the player of `seat_id`: its row is written in the transaction that invites
    them, so it comes before any turn email of the game (planned by the beat after the
    commit; games.mail.services.send sends a game's emails to a person in the order written), and
    sent after the commit. The email carries their own link, rebuilt from the seat when
    it is written (never passed through the broker)."""
    log.debug("seat %s: invitation ready", seat_id)
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is not None:
        plan.queue(plan.invitation(seat))


@shared_task(name="games.tasks.plan_deadline_missed")
def plan_deadline_missed(game_id: int, version: int, seat_id: int) -> int:
    """The missed-deadline email and the moderators' alerts."""
    with transaction.atomic():
        return len(plan_deadline_missed_rows(game_id, version, seat_id))


def after_deadline_missed(game_id: int, version: int, seat_id: int) -> None:
    """The server applied the timeout policy to turn `version` of the game (seat_id's)."""
    log.debug("game %s: deadline of version %s missed", game_id, version)
    queue_on_commit(plan_deadline_missed, game_id, version, seat_id,
                    fallback=lambda: plan_deadline_missed_rows(game_id, version, seat_id))


def plan_deadline_missed_rows(game_id: int, version: int, seat_id: int) -> list[int]:
    """The missed-deadline email's rows (also the task's body)."""
    game = Game.objects.get(pk=game_id)
    seat = Seat.objects.get(pk=seat_id)
    return plan.queue(plan.deadline_missed(game, seat, version, ABSENT_AFTER_MISSES))
