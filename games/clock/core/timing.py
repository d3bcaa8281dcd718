"""When a seat's clock runs, without side effects: the one arithmetic of slow play.

A seat's clock runs at every moment except
- on the game's weekdays off, in the seat's own time zone (`Rules.weekdays_off`, 0 is
  Monday), and on the dates the table set off (`Rules.dates_off`, the seat's local dates);
- inside the seat's quiet hours (`Rules.quiet`: local hours [from, to), wrapping midnight
  when from > to, e.g. (22, 8)), unless `Rules.quiet_runs` (a fixed time per move: the
  clock runs through them, only no deadline falls inside them);
- during a stop (`Rules.stops`: a pause the table agreed on, the seat's vacation), given
  as UTC intervals.

    running(rules, start, end)    the intervals in [start, end) when the clock runs
    charged(rules, start, end)    how much running time lies in [start, end)
    deadline(rules, start, time)  the moment `time` of running time after `start`
    before(rules, start, end, t)  the last moment in [start, end] with `t` running left
    clear_of_quiet(rules, moment) a deadline moved out of the quiet hours (to their end)
    reminder_moment(rules, at, deadline)  a reminder moved before quiet hours that would
                                  hold its email past the deadline (to their start)
    quiet_window(quiet, zone, moment)  the quiet hours holding a moment
    bank_after(left, increment, cap)  a bank after a move (Fischer: never above the cap)

The move path (`games.clock.services.turn_clock.set_clock`), the sweeps, the pages, the emails and
the API all ask these, and the property tests (tests/play/test_clock_properties.py) check them
against counting minute by minute. Daylight-saving changes: a local day runs from its
midnight to the next one, whatever its length; a local hour that does not exist (spring
forward) is read with the offset before the change.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

Interval = tuple[datetime, datetime]

# A deadline further than this is refused (every weekday off would mean no deadline ever).
HORIZON = timedelta(days=3 * 366)
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MAX_WEEKDAYS_OFF = 5  # at least two days of each week run
MAX_QUIET_HOURS = 12  # at least half of each running day runs


class NeverRuns(ValueError):
    """The rules leave no running time before the horizon."""


class UnknownWeekday(ValueError):
    """A word that names no weekday (the error's text is the word)."""


class TooManyDaysOff(ValueError):
    """More than MAX_WEEKDAYS_OFF weekdays off."""


@dataclass(frozen=True)
class Rules:
    zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))
    weekdays_off: frozenset[int] = frozenset()
    dates_off: frozenset[date] = frozenset()
    quiet: tuple[int, int] | None = None
    stops: tuple[Interval, ...] = ()
    # The clock runs through the quiet hours (a fixed time per move); they only keep
    # deadlines out (clear_of_quiet). False: the clock stops in them (a bank).
    quiet_runs: bool = False


def _moment(day: date, hour: int, zone: ZoneInfo) -> datetime:
    """Local `hour` o'clock of `day` (24: the next midnight) as a UTC moment."""
    if hour >= 24:
        day, hour = day + timedelta(days=1), 0
    return datetime.combine(day, time(hour), tzinfo=zone).astimezone(UTC)


def _day_hours(rules: Rules) -> list[tuple[int, int]]:
    """The local hours of a running day when the clock runs."""
    if rules.quiet is None or rules.quiet[0] == rules.quiet[1] or rules.quiet_runs:
        return [(0, 24)]
    start, end = rules.quiet
    if start < end:
        return [(0, start), (end, 24)]
    return [(end, start)]


def _day(rules: Rules, day: date) -> list[Interval]:
    if day.weekday() in rules.weekdays_off or day in rules.dates_off:
        return []
    spans = [(_moment(day, a, rules.zone), _moment(day, b, rules.zone))
             for a, b in _day_hours(rules) if a < b]
    return [(a, b) for a, b in spans if a < b]


def _minus_stops(span: Interval, stops: list[Interval]) -> Iterator[Interval]:
    start, end = span
    for stop_start, stop_end in stops:  # sorted by start
        if stop_end <= start:
            continue
        if stop_start >= end:
            break
        if stop_start > start:
            yield start, stop_start
        start = max(start, stop_end)
        if start >= end:
            return
    if start < end:
        yield start, end


def _every_day_whole(rules: Rules) -> bool:
    """No day off and no quiet hours that stop the clock: every local day runs whole."""
    return not rules.weekdays_off and not rules.dates_off and _day_hours(rules) == [(0, 24)]


def _always_runs(rules: Rules) -> bool:
    """The clock runs at every moment, no stop either (most games): up to the horizon a
    span's running time is its length, and `charged`, `deadline` and `before` answer
    by plain arithmetic what the spans would give them (a move asks about ten times)."""
    return not rules.stops and _every_day_whole(rules)


def _length(start: datetime, end: datetime) -> timedelta:
    """The time from `start` to `end` as it passes (two moments of one time zone subtract
    as wall clocks, across a daylight-saving change too)."""
    return end.astimezone(UTC) - start.astimezone(UTC)


def _all_running(rules: Rules, start: datetime) -> Iterator[Interval]:
    """Every running interval from `start` on, up to the horizon (the end of its local
    day)."""
    stops = sorted((a.astimezone(UTC), b.astimezone(UTC)) for a, b in rules.stops if a < b)
    start = start.astimezone(UTC)
    last = (start + HORIZON).astimezone(rules.zone).date()
    if _every_day_whole(rules):
        # The days would follow each other without a gap: one span, not one per day
        # (most games; a move asks the clock about twenty times).
        yield from _minus_stops((start, _moment(last, 24, rules.zone)), stops)
        return
    day = start.astimezone(rules.zone).date() - timedelta(days=1)
    while day <= last:
        for a, b in _day(rules, day):
            a = max(a, start)
            if a < b:
                yield from _minus_stops((a, b), stops)
        day += timedelta(days=1)


def running(rules: Rules, start: datetime, end: datetime) -> list[Interval]:
    found: list[Interval] = []
    for a, b in _all_running(rules, start):
        if a >= end:
            break
        found.append((a, min(b, end)))
    return found


def charged(rules: Rules, start: datetime, end: datetime) -> timedelta:
    """The running time in [start, end): what a turn over that span costs the seat."""
    if end <= start:
        return timedelta()
    if _always_runs(rules) and (length := _length(start, end)) <= HORIZON:
        return length
    return sum((b - a for a, b in running(rules, start, end)), timedelta())


def deadline(rules: Rules, start: datetime, time_left: timedelta) -> datetime:
    """The moment when `time_left` of running time after `start` is spent. Always after
    `start` when `time_left` is positive. Raises NeverRuns past the horizon."""
    left = max(time_left, timedelta())
    if _always_runs(rules) and left <= HORIZON:
        return start.astimezone(UTC) + left
    for a, b in _all_running(rules, start):
        if b - a >= left:
            return a + left if left else a
        left -= b - a
    raise NeverRuns("no running time before the horizon")


def before(rules: Rules, start: datetime, end: datetime, left: timedelta) -> datetime | None:
    """The last moment in [start, end] from which `left` of running time remains before
    `end` (a reminder "`left` before the deadline"); None when the span holds less."""
    if _always_runs(rules) and (length := _length(start, end)) <= HORIZON:
        return end - left if length > timedelta() and length >= left else None
    spans = running(rules, start, end)
    for a, b in reversed(spans):
        if b - a >= left:
            return b - left
        left -= b - a
    return None


def quiet_window(quiet: tuple[int, int] | None, zone: ZoneInfo,
                 moment: datetime) -> Interval | None:
    """The quiet hours [start, end) that hold `moment` (local hours in `zone`, as UTC
    moments), or None when it lies outside them. A local hour read twice (autumn's change)
    is inside both times; one that does not exist (spring's) is never inside."""
    if quiet is None or quiet[0] == quiet[1]:
        return None
    local = moment.astimezone(zone)
    start, end = quiet
    wraps = start > end  # e.g. (22, 8): from the evening to the next morning
    if (start <= local.hour < end) or (wraps and local.hour >= start):
        first = local.date()
    elif wraps and local.hour < end:
        first = local.date() - timedelta(days=1)
    else:
        return None
    last = first + timedelta(days=1) if wraps else first
    return _moment(first, start, zone), _moment(last, end, zone)


def _strictly_inside(rules: Rules, moment: datetime) -> Interval | None:
    """The quiet hours holding `moment` past their first instant, else None."""
    window = quiet_window(rules.quiet, rules.zone, moment)
    return window if window is not None and window[0] < moment else None


def clear_of_quiet(rules: Rules, moment: datetime) -> datetime:
    """A deadline computed at `moment`, never strictly inside the quiet hours: from inside
    them it moves to their end (when a day off or a stop begins there, to the next moment
    the clock runs, again clear of them). Their first instant is no later than the clock
    that stops in them allows, so it stays."""
    while (window := _strictly_inside(rules, moment)) is not None:
        try:
            moment = deadline(rules, window[1], timedelta())  # the next running moment
        except NeverRuns:
            return window[1]
    return moment


def reminder_moment(rules: Rules, at: datetime, deadline: datetime) -> datetime:
    """When a reminder due at `at` goes out. Inside quiet hours its email waits for their
    end; when they end only at or after `deadline` it would come too late, so it goes at
    their start instead (the evening before: better than none). Else at `at`."""
    window = quiet_window(rules.quiet, rules.zone, at)
    return at if window is None or window[1] < deadline else window[0]


def bank_after(left: timedelta, increment: timedelta, cap: timedelta) -> timedelta:
    """A bank after its seat moved: what was left plus the increment, at most the cap."""
    return min(max(left, timedelta()) + max(increment, timedelta()), cap)


def parse_weekdays(text: str) -> frozenset[int]:
    """"sat,sun" -> {5, 6}; raises UnknownWeekday (its text the word) or TooManyDaysOff."""
    days: set[int] = set()
    for word in (w.strip().lower() for w in text.split(",")):
        if not word:
            continue
        if word[:3] not in WEEKDAYS or not _names_weekday(word):
            raise UnknownWeekday(word[:20])
        days.add(WEEKDAYS.index(word[:3]))
    if len(days) > MAX_WEEKDAYS_OFF:
        raise TooManyDaysOff(text)
    return frozenset(days)


def _names_weekday(word: str) -> bool:
    """"sat", "saturday" (any case), not "satx"."""
    full = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    return len(word) == 3 or word in full



def quiet_length(quiet: tuple[int, int]) -> int:
    start, end = quiet
    return (end - start) % 24
