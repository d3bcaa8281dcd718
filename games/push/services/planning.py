"""A push beside each planned email of a kind a device wants (games.mail.core.mail_events:
the outbox publishes, games.wiring subscribes this): one PushAlert per device, written in
the planning transaction and sent by the worker once it commits.

The alert waits as the email does (`not_before`: quiet hours, days off and the "already
seen on the open page" look are in the email's row already). A push-only person's turn
email waits besides for the alert's receipt: `fallback_minutes` more; a receipt skips
it (games.push.services.receipts), none sends it then (the email's own send task).

A game's start has no email of its own (its first turn email is the first player's): its
"game started or ended" alerts are planned when it starts (`plan_start_alerts`, called by
games.setup), one per device of each player that wants the kind, with no email beside.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.clock.core import rules as clock_rules
from games.game.core.choices import EmailMode
from games.game.core.game import Game
from games.kit.after_commit import queue_on_commit
from games.mail.core.mail_events import NotificationsPlanned
from games.mail.core.notifications import Notification
from games.mail.services.held_emails import hold_until
from games.people.core.mailbox_keys import of_mailbox
from games.push.core.push_rows import AlertKind, PushAlert, PushDevice
from games.push.services.devices import choice_of
from games.push.services.sending import send_push
from games.seats.core.seat import Seat

Kind = Notification.Kind

# Which emails come with a push, and as which kind of alert.
ALERT_OF: dict[str, str] = {
    Kind.TURN: AlertKind.TURN,
    Kind.NUDGE: AlertKind.TURN,
    Kind.REMINDER: AlertKind.DEADLINE,
    Kind.GAME_END: AlertKind.START_END,
}
# A held push goes when it is due: at once from the task if that is soon, else the sweep.
SOON = timedelta(hours=1)


def on_notifications_planned(event: NotificationsPlanned) -> None:
    for note in event.notes:  # as written: nothing to read again
        if note.kind in ALERT_OF and note.game_id is not None and note.seat_id is not None:
            plan_alerts(note)


def plan_alerts(note: Notification) -> list[int]:
    """The alerts of one planned email, one per device of its person that wants the kind."""
    kind = ALERT_OF[note.kind]
    devices = [d for d in PushDevice.objects.filter(of_mailbox(note.to_email))
               if kind in d.kinds]
    if not devices:
        return []
    now = timezone.now()
    holds = kind == AlertKind.TURN and note.kind == Kind.TURN
    choice = choice_of(note.to_email) if holds else None
    holds = holds and choice is not None and choice.push_only
    alerts = [PushAlert.objects.get_or_create(
        notification=note, device=device,
        defaults={"kind": kind, "browser": device.browser, "not_before": note.not_before,
                  "holds_email": holds, "game_id": note.game_id, "seat_id": note.seat_id,
                  "to_email": note.to_email})[0] for device in devices]
    if holds and choice is not None:
        start = max(note.not_before or now, now)
        hold_until(note.pk, start + timedelta(minutes=choice.fallback_minutes))
    for alert in alerts:
        queue_alert(alert.pk, alert.not_before, now)
    return [alert.pk for alert in alerts]


def plan_start_alerts(game: Game, now: datetime) -> list[int]:
    """The "game started" alerts of a game starting now: every player's devices that chose
    "game started or ended", held by the seat's quiet hours like an email. None for a
    bot's seat, one looking for a player or one whose emails are off (links only)."""
    alerts: list[int] = []
    for seat in Seat.objects.filter(game=game).exclude(email="").order_by("number"):
        if seat.is_bot or seat.open_since is not None or (
                seat.email_mode == EmailMode.LINKS_ONLY):
            continue
        for device in PushDevice.objects.filter(of_mailbox(seat.email)):
            if AlertKind.START_END not in device.kinds:
                continue
            alert = PushAlert.objects.create(
                device=device, kind=AlertKind.START_END, browser=device.browser, game=game,
                seat=seat, to_email=seat.email, not_before=clock_rules.quiet_until(seat, now))
            queue_alert(alert.pk, alert.not_before, now)
            alerts.append(alert.pk)
    return alerts


def queue_alert(alert_id: int, not_before: datetime | None, now: datetime) -> None:
    """Hand the alert to the worker after the commit: now, or when it is due if that is
    within the hour (the sweep sends a later one: games.push.services.sending.due)."""
    wait = (not_before - now).total_seconds() if not_before is not None else 0.0
    if wait > SOON.total_seconds():
        return
    queue_on_commit(send_push, alert_id, countdown=max(wait, 0.0) or None)
