"""Celery tasks: thin shells that take ids and call games.mail / games.play (services).

Every task may run twice (a redelivered message, a retried hook): each is written so
the second run changes nothing (unique Notification keys, conditional claims).
The beat runs the sweep_* tasks (schedule in saboteur_site/celery.py).
"""

from __future__ import annotations

from typing import Any

from celery import Task
from django.db import transaction
from django.utils import timezone

from games.handover import offers as handover_offers
from games.inbound import process as inbound
from games.mail import plan, send
from games.models import Seat
from games.play import bot_turns, move_emails
from games.play.clock import sweeps
from games.play.hooks import plan_deadline_missed_rows
from saboteur_site.celery import app


@app.task(name="games.tasks.plan_after_move")
def plan_after_move(game_id: int, version: int) -> int:
    """Turn, round-end and game-end emails after a move (or the start) reached `version`.
    Moves no longer queue it (their outbox rows go to `follow_up_moves`); it stays for
    tasks a server of the previous release left in the broker, and for operators."""
    with transaction.atomic():
        return len(plan.queue(plan.after_move(game_id, version)))


@app.task(name="games.tasks.follow_up_moves")
def follow_up_moves() -> int:
    """The emails of every move made since the last run (the beat, FOLLOW_UP_SECONDS)."""
    return move_emails.follow_up_due()


@app.task(name="games.tasks.plan_invitation")
def plan_invitation(seat_id: int) -> int:
    with transaction.atomic():
        seat = Seat.objects.filter(pk=seat_id).first()
        return len(plan.queue(plan.invitation(seat))) if seat else 0


@app.task(name="games.tasks.plan_deadline_missed")
def plan_deadline_missed(game_id: int, version: int, seat_id: int) -> int:
    """The missed-deadline email and the moderators' alerts."""
    with transaction.atomic():
        return len(plan_deadline_missed_rows(game_id, version, seat_id))


@app.task(bind=True, name="games.tasks.send_notification", max_retries=None)
def send_notification(self: Task[Any, Any], notification_id: int) -> str:
    """Send one email; on a provider error, again after the backoff the row records."""
    outcome = send.deliver(notification_id)
    if outcome.retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status


@app.task(name="games.tasks.process_inbound_mail")
def process_inbound_mail(mail_id: int) -> str:
    """Act on a reply to a turn email that the webhook stored, and plan its answer."""
    return inbound.process(mail_id).outcome


@app.task(name="games.tasks.play_bot_turn")
def play_bot_turn(game_id: int, version: int) -> bool:
    """A bot seat's move of turn `version`; a second run (or a stale one) does nothing."""
    return bot_turns.play_bot_turn(game_id, version)


@app.task(name="games.tasks.sweep_bot_turns")
def sweep_bot_turns() -> int:
    """Queue again the bot turns whose task was lost (broker down, worker died)."""
    stalled = bot_turns.stalled_bot_turns(timezone.now())
    for game_id, version in stalled:
        play_bot_turn.delay(game_id, version)
    return len(stalled)


@app.task(name="games.tasks.sweep_deadlines")
def sweep_deadlines() -> int:
    return sweeps.sweep_deadlines(handle_deadlines.delay)


@app.task(name="games.tasks.handle_deadlines")
def handle_deadlines(batch: list[list[object]]) -> dict[str, int]:
    """[[game id, version, deadline], ...] from one sweep."""
    return sweeps.handle_deadlines(batch)


@app.task(name="games.tasks.sweep_reminders")
def sweep_reminders() -> int:
    return sweeps.sweep_reminders(handle_reminders.delay)


@app.task(name="games.tasks.handle_reminders")
def handle_reminders(batch: list[list[object]]) -> int:
    """[[game id, version, reminder time], ...] from one sweep."""
    return sweeps.handle_reminders(batch)


@app.task(name="games.tasks.sweep_digests")
def sweep_digests() -> int:
    return sweeps.sweep_digests()


@app.task(name="games.tasks.requeue_unsent")
def requeue_unsent() -> int:
    """Send rows whose send task was lost (broker down, worker died), and act on stored
    replies to turn emails whose task was lost."""
    now = timezone.now()
    ids = send.unsent(now)
    for notification_id in ids:
        send_notification.delay(notification_id)
    replies = inbound.unprocessed(now)  # replies whose task was lost
    for mail_id in replies:
        process_inbound_mail.delay(mail_id)
    return len(ids) + len(replies)


@app.task(name="games.tasks.offer_open_seat")
def offer_open_seat(open_seat_id: int) -> int:
    """The first offers of a seat that just opened, to standby volunteers."""
    return handover_offers.offer_to_volunteers(open_seat_id)


@app.task(name="games.tasks.sweep_open_seats")
def sweep_open_seats() -> dict[str, int]:
    """Open absent seats where games allow it, offer open seats to the next volunteers,
    close those of ended games (the beat)."""
    return handover_offers.sweep_open_seats()
