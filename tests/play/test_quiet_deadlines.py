"""Quiet hours and the deadline agree: a deadline never falls inside the quiet hours of
the seat to act (those its turn began with; it moves to their end), and no reminder
waits past its deadline (one the quiet hours would hold that long comes at their start,
the evening before). Time-machine for a whole night, hypothesis over the clock's
service (games.clock.services.turn_clock) for every kind of clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from games import tasks
from games.clock.core import rules as clock_rules
from games.clock.core import timing as timing
from games.clock.services import turn_clock as clock
from games.clock.services import vacations
from games.game.core.game import Game
from games.mail.services import send
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.email_support import sent_to
from tests.support import make_game

pytestmark = pytest.mark.django_db

ROME = ZoneInfo("Europe/Rome")
# Saturday 24 October 2026, 08:57 in Rome (summer time): 24 hours later Rome has turned
# its clocks back an hour, so a day per move would end on Sunday at 07:57, inside the
# seat's quiet hours from 22:00 to 08:00.
TURN_START = datetime(2026, 10, 24, 8, 57, tzinfo=ROME).astimezone(UTC)
PLAIN = TURN_START + timedelta(hours=24)  # in UTC: 24 hours, not a day of Rome's clock
QUIET_END = datetime(2026, 10, 25, 8, 0, tzinfo=ROME).astimezone(UTC)
QUIET_START = datetime(2026, 10, 24, 22, 0, tzinfo=ROME).astimezone(UTC)


def quiet_table() -> Any:
    """A table whose first seat plays in Rome with quiet hours from 22:00 to 08:00."""
    g = make_game(players=3, seed=1, start=False)
    Seat.objects.filter(pk=g.seats[0].pk).update(time_zone="Europe/Rome", quiet_from=22,
                                                 quiet_to=8)
    return g


def reminders_to(address: str) -> list[Any]:
    return [m for m in sent_to(address) if "reminder" in m.subject]


def test_a_day_per_move_ending_in_the_quiet_hours_ends_at_their_end(
        client: Client, commit: Any) -> None:
    assert PLAIN.astimezone(ROME).hour == 7 and PLAIN.astimezone(ROME).minute == 57
    with time_machine.travel(TURN_START, tick=False):
        g = quiet_table()
        with commit():
            game_setup.start_game(g.game.pk)
        game = g.refresh()
        assert game.actor == 0
        assert game.deadline_at == QUIET_END  # not 07:57
        shown = "Sunday 25 October 2026, 08:00 (Europe/Rome)"
        assert shown in client.get(g.page(0)).content.decode()
        assert client.get(g.api(0)).json()["clock"]["deadline"] == "2026-10-25T07:00:00+00:00"
        [turn] = [m for m in sent_to("p0@example.com") if "turn" in m.subject]
        assert f"Please play by {shown}" in turn.body
        # With a fixed time per move the quiet hours count: the email does not deny it.
        assert "left on your clock (days off and pauses do not count)." in turn.body


def test_the_last_reminder_comes_before_the_deadline_at_the_start_of_the_quiet_hours(
        commit: Any) -> None:
    """The night through, quarter hour by quarter hour: the 12-hour reminder at 21:00,
    the last one at 22:00 (its hour before the deadline lies in the quiet hours, which end
    only with it), none after the deadline."""
    with time_machine.travel(TURN_START, tick=False) as traveller:
        g = quiet_table()
        with commit():
            game_setup.start_game(g.game.pk)
        deadline = g.refresh().deadline_at
        assert deadline == QUIET_END
        arrived: list[tuple[datetime, str]] = []
        now = TURN_START + timedelta(minutes=3)  # 07:00 UTC, then every quarter hour
        while now < deadline + timedelta(minutes=30):
            traveller.move_to(now)
            seen = len(reminders_to("p0@example.com"))
            with commit():
                tasks.sweep_reminders()
                for pk in send.unsent(now):
                    send.deliver(pk)
            arrived += [(now, m.subject) for m in reminders_to("p0@example.com")[seen:]]
            now += timedelta(minutes=15)
        assert [when for when, _subject in arrived] == [
            deadline - timedelta(hours=12), QUIET_START]
        assert "due in 11\xa0hours" in arrived[-1][1]  # Rome's night is 25 hours long
        assert max(when for when, _subject in arrived) < deadline


def test_a_reminder_held_by_quiet_hours_changed_meanwhile_still_comes_before_the_deadline(
        client: Client, commit: Any) -> None:
    """The sweep planned the last reminder for 07:00 with no quiet hours; the player then
    chose quiet hours until 08:00 (they hold emails at once), the deadline being 08:00:
    the reminder goes at its time instead of waiting for 08:00."""
    start = datetime(2026, 3, 2, 8, tzinfo=UTC)  # Monday, a day per move
    with time_machine.travel(start, tick=False) as traveller:
        g = make_game(players=3, seed=1, start=False)
        with commit():
            game_setup.start_game(g.game.pk)
        deadline = g.refresh().deadline_at
        assert deadline == start + timedelta(hours=24)
        traveller.move_to(start + timedelta(hours=13))  # 21:00: the 12-hour reminder
        with commit():
            tasks.sweep_reminders()
        Seat.objects.filter(pk=g.seats[0].pk).update(quiet_from=22, quiet_to=8)
        traveller.move_to(deadline - timedelta(hours=1))
        seen = len(reminders_to("p0@example.com"))
        with commit():
            tasks.sweep_reminders()
        [last] = reminders_to("p0@example.com")[seen:]
        assert "due in 1\xa0hour" in last.subject


def test_a_vacation_moves_the_turns_own_deadline_not_the_hours_the_quiet_hours_added(
        commit: Any) -> None:
    """The deadline held at 08:00 (its time ran out at 07:57): a vacation of 10 hours
    taken and ended at once moves nothing; one of 2 hours kept moves the 07:57 deadline
    to 09:57, clear of the quiet hours."""
    with time_machine.travel(TURN_START, tick=False) as traveller:
        g = quiet_table()
        with commit():
            game_setup.start_game(g.game.pk)
        seat = g.seats[0].pk
        traveller.move_to(TURN_START + timedelta(hours=1))
        vacations.take_vacation(seat, timedelta(hours=10))
        vacations.end_vacation(seat)
        assert g.refresh().deadline_at == QUIET_END
        vacations.take_vacation(seat, timedelta(hours=2))
        assert g.refresh().deadline_at == PLAIN + timedelta(hours=2)


# ---- every clock, every start: the service's deadline and reminders ----------------------

ZONES = ["UTC", "Europe/Rome", "America/New_York", "Asia/Kolkata", "Australia/Adelaide"]
ORIGIN = datetime(2026, 3, 20, tzinfo=UTC)  # Europe and Adelaide change their clocks soon
QUIET = st.tuples(st.integers(0, 23), st.integers(0, 23)).filter(
    lambda q: q[0] != q[1] and timing.quiet_length(q) <= timing.MAX_QUIET_HOURS)
CLOCKS = st.one_of(
    st.builds(lambda hours: ("per_move", hours), st.integers(1, 96)),
    st.builds(lambda hours: ("bank", hours), st.integers(1, 96)),
)


@dataclass(frozen=True)
class ClockSeat:
    """The seat to act as the clock reads it (games.clock.core.rules.ClockSeat)."""
    time_zone: str
    quiet_from: int
    quiet_to: int
    number: int = 0
    vacation_until: datetime | None = None


def quiet_inside(seat: ClockSeat, moment: datetime) -> bool:
    """Strictly inside the seat's quiet hours: in them, and so was a second before."""
    quiet, zone = (seat.quiet_from, seat.quiet_to), ZoneInfo(seat.time_zone)
    return all(timing.quiet_window(quiet, zone, m) is not None
               for m in (moment, moment - timedelta(seconds=1)))


@settings(max_examples=150, deadline=None)
@given(clock_kind=CLOCKS, zone=st.sampled_from(ZONES), quiet=QUIET,
       days_off=st.frozensets(st.integers(0, 6), max_size=2),
       begin=st.integers(0, 24 * 60 * 20), reminders=st.sets(st.integers(1, 48), max_size=3))
def test_no_deadline_inside_the_quiet_hours_and_no_reminder_after_its_deadline(
        clock_kind: tuple[str, int], zone: str, quiet: tuple[int, int],
        days_off: frozenset[int], begin: int, reminders: set[int]) -> None:
    kind, hours = clock_kind
    game = Game(status=Game.Status.ACTIVE, actor=0, hours_per_move=hours,
                bank_hours=hours if kind == "bank" else None, weekdays_off=sorted(days_off),
                reminder_hours=sorted(reminders))
    seat = ClockSeat(zone, *quiet)
    start = ORIGIN + timedelta(minutes=begin)
    clock.set_clock(game, start, {0: seat})
    deadline = game.deadline_at
    assert deadline is not None and deadline > start
    assert not quiet_inside(seat, deadline)
    rules = clock_rules.rules(game, seat, start)
    # The turn gives at least its time; more only when the quiet hours moved its end.
    plain = clock.turn_deadline(rules, start, clock_rules.turn_time(game, 0))
    assert deadline >= plain
    if not quiet_inside(seat, plain):
        assert deadline == plain
    for _minutes, at in clock.reminder_times(deadline, clock.turn_reminders(game, rules),
                                             rules, start):
        if not start < at < deadline:
            continue  # already due when the turn begins: skipped (next_reminder_at)
        sent = clock_rules.reminder_held_until(seat, at, deadline) or at
        assert sent < deadline
        assert not quiet_inside(seat, sent)
