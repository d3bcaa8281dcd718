"""Celery tasks: thin shells that take ids and call the services. Every task the worker
runs is listed here: the beat's sweeps are defined here, the others next to the service
that queues them (imported below, so the worker registers them all).

Every task may run twice (a redelivered message, a retried hook): each is written so
the second run changes nothing (unique Notification keys, conditional claims).
The beat runs the sweep_* tasks (schedule in saboteur_site/celery.py).
"""

from __future__ import annotations

from django.utils import timezone

from games.challenges.services.challenging import expire_challenges
from games.clock.services import sweeps
from games.handover.services.offers import offer_open_seat
from games.handover.services.opening import sweep_open_seats as sweep_handover
from games.home.services.forget import forget_waiting
from games.home.services.lost_links import send_links
from games.home.services.welcome import plan_home_email
from games.inbound.services.process import process_inbound_mail, unprocessed
from games.learn.services import lessons
from games.mail.services import move_emails, reminder_sweeps, send
from games.mail.services.follow_ups import plan_deadline_missed, plan_invitation
from games.mail.services.send import send_notification
from games.moderation.services import dispute_mail
from games.moves.services import bot_turns
from games.moves.services.moves import play_bot_turn
from games.push.services import sending as push_sending
from games.push.services.sending import send_push
from games.ratings.services import rating_outbox
from games.setup.services import web_setup
from games.tables.services.starting import sweep_tables
from games.tournaments.services.pairing_rounds import sweep_tournaments as sweep_events
from saboteur_site.celery import app

__all__ = [
    "follow_up_moves", "handle_deadlines", "handle_reminders", "offer_open_seat",
    "plan_deadline_missed", "plan_home_email", "plan_invitation", "play_bot_turn",
    "process_inbound_mail", "rate_rounds", "requeue_unsent", "send_links",
    "send_notification", "send_push", "sweep_bot_turns", "sweep_challenges",
    "sweep_deadlines", "sweep_digests", "sweep_forgets", "sweep_lessons",
    "sweep_open_seats", "sweep_open_tables", "sweep_pushes", "sweep_reminders",
    "sweep_report_digests", "sweep_tournaments", "sweep_unconfirmed_setups",
]


@app.task(name="games.tasks.follow_up_moves")
def follow_up_moves() -> int:
    """The emails of every move made since the last run (the beat, FOLLOW_UP_SECONDS)."""
    return move_emails.follow_up_due()


@app.task(name="games.tasks.rate_rounds")
def rate_rounds() -> int:
    """Rate the rounds ended since the last run (the beat, FOLLOW_UP_SECONDS)."""
    return rating_outbox.rate_due()


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
    return reminder_sweeps.sweep_reminders(handle_reminders.delay)


@app.task(name="games.tasks.handle_reminders")
def handle_reminders(batch: list[list[object]]) -> int:
    """[[game id, version, reminder time], ...] from one sweep."""
    return reminder_sweeps.handle_reminders(batch)


@app.task(name="games.tasks.sweep_digests")
def sweep_digests() -> int:
    return reminder_sweeps.sweep_digests()


@app.task(name="games.tasks.sweep_report_digests")
def sweep_report_digests() -> int:
    """The moderators' digest of each game's reports of table talk waiting for it, once
    the hour since the game's last email about reports is over (the beat)."""
    return dispute_mail.report_digests()


@app.task(name="games.tasks.requeue_unsent")
def requeue_unsent() -> int:
    """Send rows whose send task was lost (broker down, worker died), and act on stored
    replies to turn emails whose task was lost."""
    now = timezone.now()
    ids = send.unsent(now)
    for notification_id in ids:
        send_notification.delay(notification_id)
    replies = unprocessed(now)
    for mail_id in replies:
        process_inbound_mail.delay(mail_id)
    return len(ids) + len(replies)


@app.task(name="games.tasks.sweep_open_seats")
def sweep_open_seats() -> dict[str, int]:
    """Open absent seats where games allow it, offer open seats to the next volunteers,
    close those of ended games (the beat)."""
    return sweep_handover()


@app.task(name="games.tasks.sweep_forgets")
def sweep_forgets() -> int:
    """Carry out the requests to be forgotten that waited for games to end (the beat)."""
    return forget_waiting()


@app.task(name="games.tasks.sweep_unconfirmed_setups")
def sweep_unconfirmed_setups() -> int:
    """Delete the web setups their host did not confirm in time (the beat)."""
    return web_setup.expire_unconfirmed()


@app.task(name="games.tasks.sweep_lessons")
def sweep_lessons() -> int:
    """Delete the lessons nobody moved in for days (games.learn.services.lessons)."""
    return lessons.sweep_idle_lessons(timezone.now())


@app.task(name="games.tasks.sweep_open_tables")
def sweep_open_tables() -> dict[str, int]:
    """Open tables whose wait has ended: started with bots, or expired (the beat)."""
    return sweep_tables()


@app.task(name="games.tasks.sweep_tournaments")
def sweep_tournaments() -> dict[str, int]:
    """Tournaments: round 1 paired when sign-up closes, the next rounds when a share of
    tables ended or at the round's deadline, events ended (the beat)."""
    return sweep_events()
@app.task(name="games.tasks.sweep_pushes")
def sweep_pushes() -> int:
    """Send the push alerts now due: held ones (quiet hours, a turn the open page showed),
    retries, and those whose task was lost (games.push.services.sending.due)."""
    ids = push_sending.due(timezone.now())
    for alert_id in ids:
        send_push.delay(alert_id)
    return len(ids)


@app.task(name="games.tasks.sweep_challenges")
def sweep_challenges() -> int:
    """Challenges past their days without every answer end as expired (the beat)."""
    return expire_challenges()
