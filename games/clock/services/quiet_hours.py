"""Quiet hours, set on the home for every game going on of the address: the hours of
its day (in each seat's own time zone) when no turn email, reminder or nudge reaches it
(games.mail.services.plan holds them until the end, from now on) and its clock does not run
(games.clock.core.timing leaves them out of its time) from the seat's next turn on: a
turn keeps the settings it began with (games.clock.core.rules.in_force), so a change
never moves a running turn's deadline. At most one change a day.

    set_quiet_hours(address, start, end) -> int   (None, None: none; the seats of the games
                                                   going on)
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clock.core import timing as timing
from games.clock.core.clock_facts import duration
from games.clock.core.refusals import ClockRefusal
from games.seats.core.seat import going_on_seats

# Quiet hours change at most once in this long (every seat whose hours would change).
CHANGE_EVERY = timedelta(days=1)


def checked_hours(start: int | None, end: int | None) -> tuple[int | None, int | None]:
    if start is None and end is None:
        return None, None
    if start is None or end is None or not (0 <= start <= 23 and 0 <= end <= 23) \
            or start == end:
        raise ClockRefusal("bad_quiet_hours", _(
            "Choose both hours of your quiet hours (from 0 to 23, not the same), or none."))
    if timing.quiet_length((start, end)) > timing.MAX_QUIET_HOURS:
        raise ClockRefusal("bad_quiet_hours", _("Quiet hours last at most %(n)s hours a day.")
                           % {"n": timing.MAX_QUIET_HOURS})
    return start, end


def set_quiet_hours(address: str, start: int | None, end: int | None) -> int:
    """The same quiet hours in every game going on; refused (nothing changes) when a
    seat whose hours would change changed them less than CHANGE_EVERY ago. The same hours
    again change nothing and count as no change."""
    start, end = checked_hours(start, end)
    now = timezone.now()
    with transaction.atomic():
        seats = list(going_on_seats(address).select_for_update(of=("self",)))
        changing = [seat for seat in seats if (seat.quiet_from, seat.quiet_to) != (start, end)]
        last = max((seat.quiet_changed_at for seat in changing
                    if seat.quiet_changed_at is not None), default=None)
        if last is not None and now < last + CHANGE_EVERY:
            raise ClockRefusal("too_soon", _(
                "Your quiet hours changed less than a day ago, and they change at most "
                "once a day: try again in %(left)s.") % {"left": duration(last + CHANGE_EVERY
                                                                         - now)})
        for seat in changing:
            seat.quiet_from, seat.quiet_to, seat.quiet_changed_at = start, end, now
            seat.save(update_fields=["quiet_from", "quiet_to", "quiet_changed_at"])
    return len(seats)
