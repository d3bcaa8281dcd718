"""The email table talk asks for (games.talk.core.mention_events, wired in games.wiring): a
line calling a player by `@name`. Planned in the talk's transaction (sent after its
commit)."""

from __future__ import annotations

from games.mail.services import plan
from games.seats.core.seat import Seat
from games.talk.core.mention_events import Mentioned


def on_mentioned(event: Mentioned) -> None:
    seat = Seat.objects.select_related("game").filter(pk=event.seat_id).first()
    if seat is not None:
        plan.queue(plan.mention(seat, event.message_id))
