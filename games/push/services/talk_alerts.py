"""Alerts of table talk: a line posted at a game alerts the other players' devices that
chose "table talk", at most one an hour a game and device (a lively table would
otherwise ring a phone all evening). Nothing for a seat that muted the writer, a seat a
bot plays or one looking for a player; quiet hours hold it like a turn email. The alert
says only that there is new talk: the line itself is read on the seat page."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.clock.core import rules as clock_rules
from games.moves.core.talk_events import TalkPosted
from games.people.core.mailbox_keys import of_mailbox
from games.push.core.push_rows import AlertKind, PushAlert, PushDevice
from games.push.services.planning import queue_alert
from games.seats.core.seat import Seat
from games.talk.core.mutes import muted_seats

AT_MOST_EVERY = timedelta(hours=1)


def on_talk_posted(event: TalkPosted) -> None:
    writer = Seat.objects.get(pk=event.seat_id)
    now = timezone.now()
    readers = (Seat.objects.filter(game_id=event.game_id).exclude(pk=writer.pk)
               .exclude(email="").select_related("game"))
    for seat in readers:
        if seat.is_bot or seat.open_since is not None or writer.number in muted_seats(seat):
            continue
        for device in PushDevice.objects.filter(of_mailbox(seat.email)):
            if AlertKind.TALK not in device.kinds or PushAlert.objects.filter(
                    device=device, game_id=event.game_id, kind=AlertKind.TALK,
                    created_at__gt=now - AT_MOST_EVERY).exists():
                continue
            alert = PushAlert.objects.create(
                device=device, kind=AlertKind.TALK, browser=device.browser,
                game_id=event.game_id, seat=seat, to_email=seat.email,
                not_before=clock_rules.quiet_until(seat, now))
            queue_alert(alert.pk, alert.not_before, now)
