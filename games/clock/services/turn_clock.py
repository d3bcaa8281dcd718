"""The turn clock's rules: deadlines, reminders, banks (the arithmetic of running time:
games.clock.core.timing; a seat's settings read: games.clock.core.rules). A move's turn
events (games.moves.core.turn_events) reach `on_turn_ending` and `on_turn_beginning`;
the sweeps and the moderators' acts read the same functions, so all keep one arithmetic.
The move the server makes at a missed deadline is the move service's rule
(games.moves.core.timeout_rule)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from django.utils import timezone

from games.clock.core import rules as clock_rules
from games.clock.core import timing as timing
from games.clock.core.rules import ClockSeat
from games.game.core.game import Game, SeatKind
from games.moves.core.turn_events import TurnBeginning, TurnEnding
from games.seats.core.seat_events import HolderChanged

# Deadlines missed in a row (auto-passed) after which a seat counts as absent.
ABSENT_AFTER_MISSES = 3
# A turn always gives at least this much running time (a bank run down to nothing).
MIN_TURN_TIME = timedelta(hours=1)
# The turn the game's reminders (hours before the deadline) are set for: a shorter turn
# has them at the same share of its time (scaled_reminders).
REMINDER_DAY = timedelta(days=1)


def reminder_times(deadline: datetime, minutes: Iterable[object],
                   rules: timing.Rules | None = None,
                   now: datetime | None = None) -> list[tuple[int, datetime]]:
    """(minutes before, moment) of each reminder, latest reminder last. With the seat's
    `rules`, "minutes before" counts running time only (a reminder never falls on a day
    off or in a pause, nor in quiet hours that stop the clock); reminders already past
    `now` are left out. One that falls in quiet hours ending only at or after the deadline
    (its email would wait past it) comes at their start (timing.reminder_moment)."""
    valid = sorted({int(m) for m in minutes if isinstance(m, int) and not isinstance(m, bool)
                    and m > 0}, reverse=True)
    if rules is None or now is None:
        return [(m, deadline - timedelta(minutes=m)) for m in valid]
    found = []
    for m in valid:
        at = timing.before(rules, now, deadline, timedelta(minutes=m))
        if at is not None:
            found.append((m, timing.reminder_moment(rules, at, deadline)))
    return found


def next_reminder_at(deadline: datetime | None, minutes: Iterable[object],
                     now: datetime, rules: timing.Rules | None = None) -> datetime | None:
    """When the reminder sweep should next look at a game whose deadline is `deadline`.

    Reminders already due when the turn starts are skipped (a 12-hour reminder in a
    12-hour turn would arrive together with the turn email).
    """
    if deadline is None:
        return None
    upcoming = [at for _m, at in reminder_times(deadline, minutes, rules, now)
                if now < at < deadline]
    return min(upcoming, default=None)


def due_reminder(deadline: datetime | None, minutes: Iterable[object],
                 now: datetime, rules: timing.Rules | None = None) -> int | None:
    """The reminder to send now (minutes before the deadline), or None.

    If the sweep was down and several are due, only the most urgent one goes out.
    """
    if deadline is None or now >= deadline:
        return None
    if rules is None:
        due = [m for m, at in reminder_times(deadline, minutes) if at <= now]
    else:
        left = timing.charged(rules, now, deadline)
        due = [m for m, _at in reminder_times(deadline, minutes)
               if timedelta(minutes=m) >= left]
        # Those brought forward to the start of the quiet hours before the deadline.
        due += [m for m, at in reminder_times(deadline, minutes, rules, now) if at <= now]
    return min(due, default=None)


def set_clock(game: Game, now: datetime,
              seats: Mapping[int, ClockSeat] | None = None) -> None:
    """Start the clock of the turn now beginning (none when nobody is to act): the
    deadline is when the seat's turn time (its bank, or the time per move) of running
    time is spent (games.clock.core.timing). `seats`: the game's seats, when the caller
    has read them already."""
    game.deadline_extension = timedelta()  # moderators' extensions are per turn
    if game.actor is None or game.status != Game.Status.ACTIVE:
        game.turn_started_at = game.deadline_at = game.reminder_at = None
        game.turn_clock = {}
        return
    game.turn_started_at = now
    seat = clock_rules.actor_seat(game, seats)
    # The turn keeps the seat's settings of now: a change made during it counts from the
    # seat's next turn, so it can never move this turn's deadline.
    game.turn_clock = clock_rules.turn_settings(seat)
    rules = clock_rules.rules(game, seat, now)
    # A seat on vacation: its clock starts when the vacation ends (a stop in its rules).
    place_deadline(game, rules, turn_deadline(rules, now, clock_rules.turn_time(game, game.actor)))
    game.reminder_at = next_reminder_at(game.deadline_at, turn_reminders(game, rules), now,
                                        rules)


def place_deadline(game: Game, rules: timing.Rules, plain: datetime) -> None:
    """The running turn's deadline: `plain` (when its time runs out) moved clear of the
    seat's quiet hours. When they moved it, the turn keeps `plain` too, so a vacation or
    a pause moves the turn's own time, never the hours the quiet hours added."""
    game.deadline_at = timing.clear_of_quiet(rules, plain)
    kept = {k: v for k, v in (game.turn_clock or {}).items() if k != "plain"}
    if game.deadline_at != plain:
        kept["plain"] = plain.isoformat()
    game.turn_clock = kept


def turn_reminders(game: Game, rules: timing.Rules) -> list[int]:
    """The running turn's reminders, in minutes before its deadline: the game's, at their
    share of a turn shorter than a day, and from half of the turn's time on one a day
    for the late player (none if the game has no reminders at all)."""
    hours = game_reminder_hours(game)
    if not hours or game.turn_started_at is None or game.deadline_at is None:
        return [h * 60 for h in hours]
    total = timing.charged(rules, game.turn_started_at, game.deadline_at)
    return sorted({*scaled_reminders(hours, total),
                   *(h * 60 for h in clock_rules.late_hours(total))})


def game_reminder_hours(game: Game) -> list[int]:
    """The game's reminders: whole hours before the deadline of a day's turn."""
    return [h for h in game.reminder_hours or []
            if isinstance(h, int) and not isinstance(h, bool) and h > 0]


def scaled_reminders(hours: list[int], total: timedelta) -> list[int]:
    """Minutes before the deadline of reminders set in hours for a turn of a day
    (REMINDER_DAY), in a turn of `total` running time: a shorter turn has each at the
    same share of it (12 h and 1 h before a day's deadline: 30 and 2 minutes before that
    of a one-hour turn), whole minutes, at least one; a longer one has them as set."""
    share = min(1.0, total / REMINDER_DAY)
    return [max(1, int(h * 60 * share)) for h in hours]


def turn_deadline(rules: timing.Rules, now: datetime, time: timedelta) -> datetime:
    """The deadline of a turn giving `time` from `now` (at least MIN_TURN_TIME)."""
    time = max(time, MIN_TURN_TIME)
    try:
        return timing.deadline(rules, now, time)
    except timing.NeverRuns:  # settings that leave no running time: the wall clock
        return now + time


def end_turn(game: Game, now: datetime, seats: Mapping[int, ClockSeat] | None = None) -> None:
    """The turn of the seat to act ends now (it moved, or the server moved for it): its
    bank is charged the running time it took and given the increment, up to the cap."""
    seat = clock_rules.actor_seat(game, seats)
    if seat is not None:
        clock_rules.charge(game, seat, now)


def reminder_rules(game: Game, now: datetime) -> timing.Rules | None:
    """The rules of the seat to act, for the reminder sweep (None: nobody is to act)."""
    seat = clock_rules.actor_seat(game, None)
    return None if seat is None else clock_rules.rules(game, seat, now)


def set_deadline(game: Game, deadline: datetime | None, now: datetime) -> list[str]:
    """Move the game's deadline (and the reminder sweep's next look with it), clear of
    the seat's quiet hours like every deadline; returns the fields to save."""
    game.deadline_at = deadline
    rules = reminder_rules(game, now)
    if deadline is not None and rules is not None:
        place_deadline(game, rules, deadline)
    every = turn_reminders(game, rules) if rules is not None else []
    game.reminder_at = next_reminder_at(game.deadline_at, every, now, rules)
    return ["deadline_at", "reminder_at", "turn_clock"]


def replan(game: Game, seat: ClockSeat | None, now: datetime, left: timedelta) -> None:
    """The running turn's deadline again after its stops changed (a vacation, a pause):
    `left` of the turn's own running time from now (clock_rules.own_time_left), read
    before the change. A deadline already passed stays: the deadline sweep acts on it,
    whatever is asked after; so does one the quiet hours hold after the turn's own time
    ran out."""
    if (game.deadline_at is None or game.actor is None or game.deadline_at <= now
            or left <= timedelta()):
        return
    rules = clock_rules.rules(game, seat, now)
    try:
        plain = timing.deadline(rules, now, left)
    except timing.NeverRuns:
        plain = now + left
    place_deadline(game, rules, plain)
    game.reminder_at = next_reminder_at(game.deadline_at, turn_reminders(game, rules), now,
                                        rules)


def on_turn_ending(event: TurnEnding) -> None:
    end_turn(event.game, event.now, event.seats)


def on_turn_beginning(event: TurnBeginning) -> None:
    set_clock(event.game, event.now, event.seats)


def on_holder_changed(changed: HolderChanged) -> None:
    """Another person took the seat during its turn (a newcomer's takeover, a moderator's
    hand-over): the turn is theirs, counted with their own time zone and quiet hours, as
    a turn beginning now would be; the one before them, under that person's settings, is
    not. A running turn is whole again from now (the time it had run is charged to
    nobody: the seat's bank is as the turn found it); a paused game's is whole when the
    pause ends; a game that waited for the seat with no deadline gets one from the
    handover (games.handover.services.opening.restart_clock_if_waiting), placed under
    the newcomer's settings. A bot standing in, or the seat's own person again, keeps the
    turn as it runs."""
    game, seat = changed.game, changed.seat
    if (changed.after != SeatKind.PERSON or not changed.to_another_person
            or game.actor != seat.number):
        return
    if game.status == Game.Status.ACTIVE and game.deadline_at is not None:
        set_clock(game, timezone.now())
        game.save(update_fields=["deadline_extension", "turn_started_at", "turn_clock",
                                 "deadline_at", "reminder_at", "updated_at"])
        return
    game.turn_clock = clock_rules.turn_settings(seat)
    fields = ["turn_clock", "updated_at"]
    if game.status == Game.Status.PAUSED and game.paused_time_left is not None:
        game.paused_time_left = max(clock_rules.turn_time(game, seat.number), MIN_TURN_TIME)
        fields.append("paused_time_left")
    game.save(update_fields=fields)
