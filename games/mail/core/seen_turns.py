"""No "your turn" email for a turn the player is looking at: a turn
the player's open page has shown within the last few minutes gets its email only if it
is still unplayed an hour later. On by default; the seat page and the home turn it off
(`Seat.skip_seen_turns`).

The open page is known by bookkeeping (`note_seen`): the seat page, its live parts
(/play/<secret>/live) and the poll (GET /api/play/<secret>/version) note when they last
showed the game and at which version. That is a write made by a GET, and GET changes
nothing a user would notice: nobody sees these two columns, no page or email shows them,
and they decide only whether an email waits. It is kept cheap: one UPDATE at most once a
minute per open page (the page polls every 3 to 10 seconds while visible), or at once
when the page shows its seat a turn it had not shown; otherwise the seat row the request
read already says all there is to say, and nothing is written.

The email then goes in two steps, through the Notification's `not_before`:
1. planning (games.mail.services.plan.turn_email): the seat's page was open within OPEN_PAGE, so
   the email waits LOOK, the time for the page to show the new turn;
2. sending (games.mail.services.send.deliver): if the page has shown this turn within
   SEEN_RECENTLY, it waits until STILL_UNPLAYED after it was planned, and then goes only
   if it is still the seat's turn (the letter skips a turn that is over); if the page
   did not show it (it was closed meanwhile), it goes now.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.mail.core.notifications import Notification
from games.seats.core.seat import Seat

NOTE_EVERY = timedelta(minutes=1)  # how often an open page writes that it is open
OPEN_PAGE = timedelta(minutes=2)  # a page noted this recently is open
LOOK = timedelta(minutes=1)  # what a turn email of an open page waits first
SEEN_RECENTLY = timedelta(minutes=5)  # "within the last few minutes"
STILL_UNPLAYED = timedelta(hours=1)


def note_seen(seat: Seat, version: int, *, its_turn: bool, now: datetime | None = None) -> None:
    """The seat's open page shows the game at `version` (see the module: bookkeeping
    written at most once a minute, or when it shows the seat a new turn of its own)."""
    now = now or timezone.now()
    fresh = seat.seen_at is not None and seat.seen_at > now - NOTE_EVERY
    if fresh and (not its_turn or seat.seen_version == version):
        return
    Seat.objects.filter(pk=seat.pk).update(seen_at=now, seen_version=version)
    seat.seen_at, seat.seen_version = now, version


def wait_when_planned(seat: Seat, now: datetime) -> datetime | None:
    """Until when a turn email just planned waits: a little while if the seat's page is
    open (it may show the turn), else None (it goes now)."""
    if seat.skip_seen_turns and seat.seen_at is not None and seat.seen_at > now - OPEN_PAGE:
        return now + LOOK
    return None


def wait_when_sending(note: Notification, now: datetime) -> datetime | None:
    """Until when a turn email that waited goes on waiting: until an hour after it was
    planned, if the seat's page showed its turn within the last few minutes; else None
    (it goes now, or the letter finds the turn over and skips it)."""
    seat = note.seat
    if (note.kind != Notification.Kind.TURN or note.not_before is None or seat is None
            or not seat.skip_seen_turns):
        return None
    until = note.created_at + STILL_UNPLAYED
    seen = (seat.seen_at is not None and seat.seen_at > now - SEEN_RECENTLY
            and seat.seen_version == note.params.get("version"))
    return until if seen and now < until else None
