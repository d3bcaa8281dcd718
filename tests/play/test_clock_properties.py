"""The clock's arithmetic (games.clock.core.timing) checked against counting by hand:
the time charged to a seat never includes its days off, quiet hours (when they stop its
clock) or stops; a deadline is always after the turn's start and never strictly inside
the seat's quiet hours; no reminder goes out after its deadline; a bank never exceeds
its cap."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.clock.core import rules as clock_rules
from games.clock.core import timing as timing

STEP = timedelta(minutes=15)
ORIGIN = datetime(2026, 3, 20, tzinfo=UTC)  # a week before Europe's spring-forward
ZONES = ["UTC", "Europe/Amsterdam", "America/New_York", "Asia/Kolkata"]


def quiet_at(rules: timing.Rules, moment: datetime) -> bool:
    """Whether `moment` is in the quiet hours, read from the local clock face."""
    if rules.quiet is None or rules.quiet[0] == rules.quiet[1]:
        return False
    local = moment.astimezone(rules.zone)
    start, end = rules.quiet
    return start <= local.hour < end if start < end else (
        local.hour >= start or local.hour < end)


def strictly_quiet(rules: timing.Rules, moment: datetime) -> bool:
    """Inside the quiet hours and past their first instant (a second before was quiet)."""
    return quiet_at(rules, moment) and quiet_at(rules, moment - timedelta(seconds=1))


def runs_at(rules: timing.Rules, moment: datetime) -> bool:
    """Whether the clock runs at `moment`, read from the local clock face."""
    local = moment.astimezone(rules.zone)
    if local.weekday() in rules.weekdays_off or local.date() in rules.dates_off:
        return False
    if quiet_at(rules, moment) and not rules.quiet_runs:
        return False
    return not any(a <= moment < b for a, b in rules.stops)


def cleared(rules: timing.Rules, plain: datetime) -> datetime:
    """A deadline moved out of the quiet hours, quarter hour by quarter hour: `plain`
    unless strictly inside them, else the first later moment when the clock runs that is
    not strictly inside them."""
    moment = plain
    while strictly_quiet(rules, moment) or (moment != plain and not runs_at(rules, moment)):
        moment += STEP
        assert moment < plain + timedelta(days=30)
    return moment


@dataclass(frozen=True)
class QuietSeat:
    """A seat as the clock reads it: its zone and quiet hours (what holds its emails)."""
    time_zone: str
    quiet_from: int | None
    quiet_to: int | None
    number: int = 0
    vacation_until: datetime | None = None


def quiet_seat(rules: timing.Rules) -> QuietSeat:
    start, end = rules.quiet if rules.quiet is not None else (None, None)
    return QuietSeat(rules.zone.key, start, end)


def counted(rules: timing.Rules, start: datetime, end: datetime) -> timedelta:
    moment, total = start, timedelta()
    while moment < end:
        if runs_at(rules, moment):
            total += STEP
        moment += STEP
    return total


def steps(low: int, high: int) -> st.SearchStrategy[datetime]:
    return st.integers(low, high).map(lambda n: ORIGIN + n * STEP)


@st.composite
def rules(draw: st.DrawFn) -> timing.Rules:
    zone = ZoneInfo(draw(st.sampled_from(ZONES)))
    weekdays = frozenset(draw(st.sets(st.integers(0, 6), max_size=timing.MAX_WEEKDAYS_OFF)))
    dates = frozenset(draw(st.sets(st.dates(date(2026, 3, 19), date(2026, 4, 20)),
                                   max_size=3)))
    quiet = draw(st.none() | st.tuples(st.integers(0, 23), st.integers(0, 23))
                 .filter(lambda q: timing.quiet_length(q) <= timing.MAX_QUIET_HOURS))
    stops = []
    for start in draw(st.lists(steps(0, 4 * 24 * 7), max_size=3)):
        stops.append((start, start + draw(st.integers(1, 200)) * STEP))
    # Either clock: a bank stops in the quiet hours, a fixed time per move runs on.
    return timing.Rules(zone, weekdays, dates, quiet, tuple(stops),
                        quiet_runs=draw(st.booleans()))


@settings(max_examples=60, deadline=None)
@given(rules(), steps(0, 4 * 24 * 14), st.integers(0, 4 * 24 * 4))
def test_time_charged_is_only_running_time(chosen: timing.Rules, start: datetime,
                                           length: int) -> None:
    end = start + length * STEP
    assert timing.charged(chosen, start, end) == counted(chosen, start, end)


@st.composite
def whole_days(draw: st.DrawFn) -> timing.Rules:
    """Rules whose every day runs whole (the clock only stops for stops): timing reads
    them as one span, not day by day."""
    chosen = draw(rules())
    quiet_runs = chosen.quiet is not None and draw(st.booleans())
    return timing.Rules(chosen.zone, stops=chosen.stops, quiet=chosen.quiet if quiet_runs
                        else None, quiet_runs=quiet_runs)


@settings(max_examples=40, deadline=None)
@given(whole_days(), steps(0, 4 * 24 * 14), st.integers(1, 4 * 24 * 4))
def test_a_clock_without_days_off_or_quiet_hours_runs_through_the_stops_only(
        chosen: timing.Rules, start: datetime, length: int) -> None:
    end = start + length * STEP
    assert timing.charged(chosen, start, end) == counted(chosen, start, end)
    due = timing.deadline(chosen, start, length * STEP)
    assert timing.charged(chosen, start, due) == length * STEP
    assert runs_at(chosen, due - STEP)
    if not chosen.stops:
        assert due == end



@settings(max_examples=40, deadline=None)
@given(whole_days(), steps(0, 4 * 24 * 14), st.integers(0, 4 * 24 * 4),
       st.integers(0, 4 * 24 * 4), st.sampled_from(ZONES))
def test_a_clock_that_always_runs_answers_as_its_spans_would(
        chosen: timing.Rules, start: datetime, length: int, left: int, zone: str) -> None:
    """A clock with no stop answers by plain arithmetic; one whose only stop begins long
    after the span reads its spans: the same running time and the same moments, in the
    same time zone (a deadline is shown as its ISO text)."""
    plain = replace(chosen, stops=())
    later = start + timedelta(days=400)
    spans = replace(plain, stops=((later, later + timedelta(days=1)),))
    start = start.astimezone(ZoneInfo(zone))
    end = start + length * STEP
    for asked in (lambda r: timing.charged(r, start, end),
                  lambda r: timing.deadline(r, start, left * STEP),
                  lambda r: timing.before(r, start, end, left * STEP),
                  lambda r: timing.before(r, end, start, left * STEP)):
        answer, expected = asked(plain), asked(spans)
        assert answer == expected
        assert getattr(answer, "tzinfo", None) == getattr(expected, "tzinfo", None)

@settings(max_examples=60, deadline=None)
@given(rules(), steps(0, 4 * 24 * 14), st.integers(1, 4 * 24 * 3))
def test_a_deadline_is_after_the_start_and_spends_exactly_the_time(
        chosen: timing.Rules, start: datetime, length: int) -> None:
    budget = length * STEP
    due = timing.deadline(chosen, start, budget)
    assert due > start
    assert timing.charged(chosen, start, due) == budget
    assert runs_at(chosen, due - STEP)  # the last quarter hour before it counted


@settings(max_examples=60, deadline=None)
@given(rules(), steps(0, 4 * 24 * 14), st.integers(1, 4 * 24 * 3), st.integers(1, 48))
def test_a_reminder_leaves_the_time_it_names(chosen: timing.Rules, start: datetime,
                                             length: int, hours: int) -> None:
    due = timing.deadline(chosen, start, length * STEP)
    at = timing.before(chosen, start, due, timedelta(hours=hours))
    if at is None:
        assert timing.charged(chosen, start, due) < timedelta(hours=hours)
    else:
        assert start <= at <= due
        assert timing.charged(chosen, at, due) == timedelta(hours=hours)


@settings(max_examples=80, deadline=None)
@given(rules(), steps(0, 4 * 24 * 14), st.integers(1, 4 * 24 * 3))
def test_a_deadline_never_falls_strictly_inside_the_quiet_hours(
        chosen: timing.Rules, start: datetime, length: int) -> None:
    plain = timing.deadline(chosen, start, length * STEP)
    due = timing.clear_of_quiet(chosen, plain)
    assert due == cleared(chosen, plain)
    assert not strictly_quiet(chosen, due)
    if not chosen.quiet_runs:  # a bank is never charged for them: it never ends inside
        assert due == plain


@settings(max_examples=150, deadline=None)
@given(rules(), steps(0, 4 * 24 * 14), st.integers(1, 4 * 24 * 3), st.integers(1, 4 * 12))
def test_no_reminder_goes_out_after_its_deadline(chosen: timing.Rules, start: datetime,
                                                 length: int, quarters: int) -> None:
    """Planned `quarters` quarter hours of running time before the deadline (up to 12
    hours: the longest quiet hours), moved to the start of quiet hours that would hold it
    past the deadline, then held by the quiet hours as its email is
    (games.clock.core.rules.reminder_held_until)."""
    assume(chosen.quiet is not None)
    due = timing.clear_of_quiet(chosen, timing.deadline(chosen, start, length * STEP))
    at = timing.before(chosen, start, due, quarters * STEP)
    if at is None:
        return
    planned = timing.reminder_moment(chosen, at, due)
    assert planned <= at
    if not quiet_at(chosen, at):
        assert planned == at
    held = clock_rules.reminder_held_until(quiet_seat(chosen), planned, due)
    sent = held or planned
    assert sent < due
    assert not strictly_quiet(chosen, sent)


@given(st.integers(0, 10**7), st.integers(0, 10**6), st.integers(1, 10**7))
def test_a_bank_never_exceeds_its_cap(left: int, increment: int, cap: int) -> None:
    bank = timing.bank_after(timedelta(seconds=left), timedelta(seconds=increment),
                             timedelta(seconds=cap))
    assert timedelta() <= bank <= timedelta(seconds=cap)
    assert bank == min(timedelta(seconds=left + increment), timedelta(seconds=cap))


def test_a_weekend_off_in_the_seats_zone() -> None:
    """A turn begun on Friday 18:00 in Amsterdam with 24 hours and the weekend off ends
    on Monday 18:00 there, across no daylight-saving change."""
    zone = ZoneInfo("Europe/Amsterdam")
    friday = datetime(2026, 3, 13, 18, tzinfo=zone)
    weekend = timing.Rules(zone, frozenset({5, 6}))
    assert timing.deadline(weekend, friday, timedelta(hours=24)) == datetime(
        2026, 3, 16, 18, tzinfo=zone)


def test_a_daylight_saving_change() -> None:
    """Europe springs forward on 29 March 2026: 24 running hours from Saturday noon end
    on Sunday 13:00 local time (the day is 23 hours long), and quiet hours still end at
    8 o'clock on the local clock."""
    zone = ZoneInfo("Europe/Amsterdam")
    saturday = datetime(2026, 3, 28, 12, tzinfo=zone)
    plain = timing.Rules(zone)
    assert timing.deadline(plain, saturday, timedelta(hours=24)).astimezone(zone) == (
        datetime(2026, 3, 29, 13, tzinfo=zone))
    quiet = timing.Rules(zone, quiet=(22, 8))
    due = timing.deadline(quiet, saturday, timedelta(hours=14)).astimezone(zone)
    assert due == datetime(2026, 3, 29, 12, tzinfo=zone)  # 10 h Saturday, 4 h Sunday


@pytest.mark.parametrize("text", ["sat,xyz", "mon,tue,wed,thu,fri,sat"])
def test_unknown_or_too_many_weekdays_are_refused(text: str) -> None:
    with pytest.raises((timing.UnknownWeekday, timing.TooManyDaysOff)):
        timing.parse_weekdays(text)


def test_weekdays_read_in_any_case() -> None:
    assert timing.parse_weekdays("Sat, SUNDAY") == frozenset({5, 6})
