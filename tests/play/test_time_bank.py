"""The clock with time-machine through the move path: a time bank running down and up,
a weekend off in each seat's own zone, a daylight-saving change, and the setup's checks."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from games import engine, tasks
from games.clock.core.clock_setup import clock_settings
from games.game.core.game import Game
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from tests.support import START, GameWithLinks, make_game, seat_move

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def pass_turn(g: GameWithLinks) -> Game:
    """The seat to act passes (the first pass its legal moves offer)."""
    game = g.refresh()
    state = game.state()
    move = next(m for m in engine.legal_moves(state) if m["type"] == "pass")
    assert state.actor is not None
    seat = Seat.objects.get(game=game, number=state.actor)
    return seat_move(seat, game.version, {k: v for k, v in move.items() if k != "seat"})


def bank_game(**chosen: Any) -> GameWithLinks:
    return make_game(players=3, seed=1, start=True, clock=clock_settings(**chosen))


def test_a_bank_runs_down_and_up_never_above_its_cap(clock: Any, commit: Any) -> None:
    with commit():
        g = bank_game(bank_hours=48, increment_hours=24, bank_max_hours=60)
    assert g.refresh().deadline_at == START + 48 * HOUR  # the whole bank
    clock.move_to(START + 10 * HOUR)
    with commit():
        game = pass_turn(g)  # seat 0 took 10 hours: 38 left, plus 24, capped at 60
    assert game.banks == {"0": 60 * 3600}
    assert game.deadline_at == START + 58 * HOUR  # seat 1: its whole bank from now
    clock.move_to(START + 50 * HOUR)
    with commit():
        game = pass_turn(g)  # seat 1 took 40 hours: 8 left, plus 24
    assert game.banks["1"] == 32 * 3600
    with commit():
        game = pass_turn(g)  # seat 2 at once: 48 + 24, capped
    assert game.banks["2"] == 60 * 3600
    assert game.actor == 0 and game.deadline_at == START + 110 * HOUR
    clock.move_to(START + 110 * HOUR)  # seat 0 lets its bank run out
    with commit():
        assert tasks.sweep_deadlines() == 1
    game = g.refresh()
    assert game.banks["0"] == 24 * 3600  # nothing left, plus the increment
    assert game.actor == 1 and game.deadline_at == START + 142 * HOUR  # seat 1's 32 hours


def test_a_weekend_off_stops_the_clock_and_its_reminders(clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True, clock=clock_settings(days_off="sat,sun"))
    friday = START + timedelta(days=4, hours=3)  # Friday 12:00 UTC
    clock.move_to(friday)
    with commit():
        game = pass_turn(g)
    monday = friday + timedelta(days=3)
    assert game.deadline_at == monday  # 12 hours on Friday, 12 on Monday
    assert game.reminder_at == monday - timedelta(hours=12)  # Monday 00:00, not Saturday
    clock.move_to(friday + timedelta(days=2))  # Sunday noon: nothing due
    with commit():
        assert tasks.sweep_deadlines() == 0
        assert tasks.sweep_reminders() == 0


def test_days_off_follow_the_seats_own_zone_across_daylight_saving(clock: Any,
                                                                     commit: Any) -> None:
    """New York springs forward on 8 March 2026: a turn begun on Friday 6 March at 18:00
    there with 24 hours and the weekend off ends on Monday 9 March at 18:00 there, which
    is an hour earlier in UTC than the same local time on Friday."""
    with commit():
        g = make_game(players=3, seed=1, start=True, clock=clock_settings(days_off="sat,sun"))
    Seat.objects.filter(game=g.game, number=1).update(time_zone="America/New_York")
    new_york = ZoneInfo("America/New_York")
    clock.move_to(datetime(2026, 3, 6, 18, tzinfo=new_york))
    with commit():
        game = pass_turn(g)
    assert game.actor == 1
    assert game.deadline_at == datetime(2026, 3, 9, 18, tzinfo=new_york)
    assert game.deadline_at.astimezone(ZoneInfo("UTC")).hour == 22  # EDT: UTC-4


@pytest.mark.parametrize(("chosen", "words"), [
    ({"bank_hours": -5}, "between 1 and"),
    ({"bank_hours": 24, "bank_max_hours": 12}, "cap cannot be less"),
    ({"increment_hours": 3}, "need a time bank"),
    ({"days_off": "sat,funday"}, "Unknown weekday funday"),
    ({"days_off": "mon,tue,wed,thu,fri,sat"}, "At most 5 weekdays"),
    ({"dates_off": ["2026-13-01"]}, "Not a date"),
])
def test_bad_clock_settings_are_refused(chosen: dict[str, Any], words: str) -> None:
    with pytest.raises(services.SetupError) as refused:
        clock_settings(**chosen)
    assert words in refused.value.message
