"""Vacations: a seat's clock stops for a while, taken from its budget (the seat page, an
email's link, the home for every game at once; docs/playing.md "Vacation").

The whole length is charged at once and ending early gives back what is left; the
deadline of the seat's running turn moves with it, the sweeps (games.clock.services.sweeps)
see only the stored deadline.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clock.core import rules as clock_rules
from games.clock.services import turn_clock as clock
from games.game.core.game import Game
from games.game.core.talk_and_notices import GameNotice
from games.moves.services.seat_services import ServiceError
from games.seats.core.seat import Seat


def take_vacation(seat_id: int, length: timedelta) -> Seat:
    """Start a vacation now: the seat's clock stops for `length`, taken from its budget.

    The whole length is charged at once (it is calendar time, whoever's turn it is);
    ending early gives back what is left. If it is the seat's turn, the deadline moves
    by `length`; if its turn comes during the vacation, the clock starts when it ends.
    """
    now = timezone.now()
    with transaction.atomic():
        game, seat = _lock_seat(seat_id)
        if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
            raise ServiceError("game_over", _("The game is over."))
        if seat.vacation_until is not None and seat.vacation_until > now:
            raise ServiceError("on_vacation", _("You are already on vacation."))
        if length <= timedelta() or length > seat.vacation_left:
            raise ServiceError("no_vacation_left", _("That is more vacation than you have left."))
        left = clock_rules.own_time_left(game, seat, now)
        seat.vacation_until = now + length
        seat.vacation_left -= length
        seat.save(update_fields=["vacation_until", "vacation_left"])
        _replan(game, seat, left, now)
        _notice(game, {"seat": seat.number, "until": seat.vacation_until.isoformat(),
                       "hours": round(length.total_seconds() / 3600, 1)})
    return seat


def end_vacation(seat_id: int) -> Seat:
    """End the seat's vacation early: the unused time goes back to its budget."""
    now = timezone.now()
    with transaction.atomic():
        game, seat = _lock_seat(seat_id)
        if seat.vacation_until is None or seat.vacation_until <= now:
            raise ServiceError("not_on_vacation", _("You are not on vacation."))
        unused = seat.vacation_until - now
        left = clock_rules.own_time_left(game, seat, now)
        seat.vacation_left += unused
        seat.vacation_until = None
        seat.save(update_fields=["vacation_until", "vacation_left"])
        _replan(game, seat, left, now)
        _notice(game, {"seat": seat.number, "ended": True})
    return seat


def _notice(game: Game, params: dict[str, object]) -> None:
    log_at = game.log_length  # where the line sits in the game log
    GameNotice.objects.create(game=game, version=game.version, kind=GameNotice.Kind.VACATION,
                              params={**params, "log_at": log_at})


def _lock_seat(seat_id: int) -> tuple[Game, Seat]:
    game_id = Seat.objects.values_list("game_id", flat=True).get(pk=seat_id)
    game = Game.objects.select_for_update().get(pk=game_id)  # the game first, always
    return game, Seat.objects.select_for_update().get(pk=seat_id)


def _replan(game: Game, seat: Seat, left: timedelta, now: datetime) -> None:
    """The deadline of the seat's running turn again, `left` running time from now (its
    clock stops during the vacation)."""
    if (game.status != Game.Status.ACTIVE or game.actor != seat.number
            or game.deadline_at is None):
        return
    clock.replan(game, seat, now, left)
    game.save(update_fields=["deadline_at", "reminder_at", "turn_clock", "updated_at"])
