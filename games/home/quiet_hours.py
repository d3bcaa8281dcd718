"""Quiet hours, set on the home for every game going on of the address: the hours of
its day (in each seat's own time zone) when no turn email, reminder or nudge reaches it
(games.mail.plan holds them until the end) and its clock does not run
(games.models.clock_timing leaves them out of its time).

    set_quiet_hours(address, start, end) -> int   (None, None: none; the seats changed)
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.home.everywhere import _going_on
from games.models import Game, clock_rules
from games.models import clock_timing as timing
from games.play import clock
from games.play.service_errors import ServiceError


def check(start: int | None, end: int | None) -> tuple[int | None, int | None]:
    if start is None and end is None:
        return None, None
    if start is None or end is None or not (0 <= start <= 23 and 0 <= end <= 23) \
            or start == end:
        raise ServiceError("bad_quiet_hours", _(
            "Choose both hours of your quiet hours (from 0 to 23, not the same), or none."))
    if timing.quiet_length((start, end)) > timing.MAX_QUIET_HOURS:
        raise ServiceError("bad_quiet_hours", _("Quiet hours last at most %(n)s hours a day.")
                           % {"n": timing.MAX_QUIET_HOURS})
    return start, end


def set_quiet_hours(address: str, start: int | None, end: int | None) -> int:
    start, end = check(start, end)
    now = timezone.now()
    seats = list(_going_on(address))
    with transaction.atomic():
        for seat in seats:
            game = Game.objects.select_for_update().get(pk=seat.game_id)
            mine = game.actor == seat.number and game.deadline_at is not None
            left = clock_rules.time_left(game, seat, now) if mine else None
            seat.quiet_from, seat.quiet_to = start, end
            seat.save(update_fields=["quiet_from", "quiet_to"])
            if left is not None:  # the running turn's deadline, its time left kept
                clock.replan(game, seat, now, left)
                game.save(update_fields=["deadline_at", "reminder_at", "updated_at"])
    return len(seats)
