"""No sequence of a seat's settings moves its running turn's deadline (time-machine and
hypothesis): whatever the player changes during their turn (quiet hours, time zone,
language, emails) and however often they start and end a vacation within their budget,
the turn's deadline is at every moment exactly the deadline its start gave, pushed by
the vacation actually taken, then moved clear of the quiet hours the turn began with
(docs/playing.md "The clock")."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import tasks
from games.clock.core import rules as clock_rules
from games.clock.core import timing as timing
from games.clock.core.clock_setup import ClockSettings
from games.clock.services import quiet_hours, vacations
from games.clock.services.turn_clock import MIN_TURN_TIME
from games.game.core.game import EmailMode, Game
from games.home.services import everywhere
from games.kit.service_errors import ServiceError
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.support import START, make_game

pytestmark = pytest.mark.django_db
STEP = timedelta(minutes=15)
ZONES = ["UTC", "Europe/Amsterdam", "America/New_York", "Asia/Kolkata", "Pacific/Kiritimati"]
BUDGET = timedelta(days=7)  # a seat's vacation per game
PLAYERS = itertools.count()  # every example's table has addresses of its own

QUIET = st.none() | st.tuples(st.integers(0, 23), st.integers(0, 23)).filter(
    lambda q: q[0] != q[1] and timing.quiet_length(q) <= timing.MAX_QUIET_HOURS)
ACTIONS = st.one_of(
    st.tuples(st.just("quiet"), QUIET),
    st.tuples(st.just("home_zone"), st.sampled_from(ZONES)),
    st.tuples(st.just("seat_zone"), st.sampled_from(ZONES)),
    st.tuples(st.just("emails"), st.sampled_from([EmailMode.EACH_TURN, EmailMode.DAILY_DIGEST,
                                                  EmailMode.LINKS_ONLY])),
    st.tuples(st.just("vacation"), st.integers(1, 24 * 8)),  # hours; above 7 days: refused
    st.tuples(st.just("back"), st.none()),
)
CLOCKS = st.one_of(
    st.builds(lambda hours: ("per_move", hours), st.sampled_from([24, 48, 72])),
    st.builds(lambda hours: ("bank", hours), st.sampled_from([24, 72])),
)


def new_table(kind: str, hours: int, days_off: frozenset[int]) -> tuple[Game, str]:
    """A 3-seat table in setup (nothing committed: no email leaves); the first seat's
    address."""
    n = next(PLAYERS)
    specs = [game_setup.PlayerSpec(name=f"P{i}", email=f"t{n}p{i}@example.com")
             for i in range(3)]
    chosen = (ClockSettings(bank_hours=hours, weekdays_off=days_off) if kind == "bank"
              else ClockSettings(weekdays_off=days_off))
    game = game_setup.create_game(name=f"Clock {n}", players=specs, seed=1, start=False,
                                  hours_per_move=hours, clock=chosen).game
    return game, f"t{n}p0@example.com"


def act(what: str, value: Any, seat: Seat, address: str) -> None:
    """What the seat's player can set: on the home (every game) or the seat page."""
    if what == "quiet":
        start, end = value if value is not None else (None, None)
        quiet_hours.set_quiet_hours(address, start, end)
    elif what == "home_zone":
        everywhere.set_language_and_zone(address, language="en", time_zone=value)
    elif what == "seat_zone":
        services.update_preferences(seat.pk, time_zone=value, language="nl")
    elif what == "emails":
        everywhere.set_email_mode_everywhere(address, value)
    elif what == "vacation":
        vacations.take_vacation(seat.pk, timedelta(hours=value))
    else:
        vacations.end_vacation(seat.pk)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clock=CLOCKS, days_off=st.frozensets(st.integers(0, 6), max_size=2),
       zone=st.sampled_from(ZONES), quiet=QUIET, begin=st.integers(0, 4 * 24 * 7),
       steps=st.lists(st.tuples(st.integers(0, 4 * 16), ACTIONS), max_size=14))
def test_no_sequence_of_settings_moves_a_running_turns_deadline(
        clock: tuple[str, int], days_off: frozenset[int], zone: str,
        quiet: tuple[int, int] | None, begin: int,
        steps: list[tuple[int, tuple[str, Any]]]) -> None:
    start = START + begin * STEP
    with time_machine.travel(start, tick=False) as traveller:
        game, address = new_table(*clock, days_off)
        Seat.objects.filter(game=game, number=0).update(
            time_zone=zone, quiet_from=quiet[0] if quiet else None,
            quiet_to=quiet[1] if quiet else None)
        game = game_setup.start_game(game.pk)
        assert game.actor is not None and game.deadline_at is not None
        seat = Seat.objects.get(game=game, number=game.actor)
        # The turn as it began: its rules and its time, before anything is changed.
        at_start = clock_rules.rules(game, seat, start)
        time = max(clock_rules.turn_time(game, seat.number), MIN_TURN_TIME)
        taken: list[list[datetime]] = []  # the vacations, [start, end] as taken or ended

        def explained() -> datetime:
            stops = (*at_start.stops, *((a, b) for a, b in taken))
            rules = replace(at_start, stops=stops)
            return timing.clear_of_quiet(rules, timing.deadline(rules, start, time))

        assert game.deadline_at == explained()
        now, deadline = start, game.deadline_at
        for wait, (what, value) in steps:
            now += wait * STEP
            if now >= deadline:
                break  # the turn is over: the sweep plays it
            traveller.move_to(now)
            try:
                act(what, value, seat, address)
            except ServiceError:
                pass  # refused: nothing changed
            else:
                if what == "vacation":
                    taken.append([now, now + timedelta(hours=value)])
                elif what == "back":
                    taken[-1][1] = now
            game.refresh_from_db()
            assert game.deadline_at == explained(), (what, value)
            deadline = game.deadline_at
            assert sum((b - a for a, b in taken), timedelta()) <= BUDGET


def test_a_vacation_taken_once_the_deadline_passed_does_not_save_the_turn(
        clock: Any, commit: Any) -> None:
    """Between the deadline and the sweep that plays the turn, a vacation (taken and
    ended at once) used to give the turn a new deadline: it stays, and the turn is played."""
    with commit():
        g = make_game(players=3, seed=1, start=True)
    deadline = g.refresh().deadline_at
    assert deadline is not None
    clock.move_to(deadline + timedelta(seconds=30))
    seat = Seat.objects.get(pk=g.seats[0].pk)
    vacations.take_vacation(seat.pk, timedelta(days=1))
    vacations.end_vacation(seat.pk)
    assert g.refresh().deadline_at == deadline
    assert Seat.objects.get(pk=seat.pk).vacation_left == BUDGET  # nothing used
    with commit():
        assert tasks.sweep_deadlines() == 1
    assert g.refresh().version == 1
