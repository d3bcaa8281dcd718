"""A game's clock settings read for one seat: the `timing.Rules` of its turns, the time a
turn gives, what is left of it, and the bank a move leaves (games.clock.core.timing does
the arithmetic; this module only reads the rows).

The stored `Game.deadline_at` is always `timing.deadline(rules, turn start, turn time)`
moved clear of the seat's quiet hours (`timing.clear_of_quiet`), computed again whenever
something changes it (a move, a vacation, a pause): so the deadline sweep stays one
indexed range query on (status, deadline_at). When the quiet hours moved it, the turn
keeps the deadline its own time gave (`Game.turn_clock["plain"]`): a vacation or a pause
moves that one, and the hours the quiet hours added are never counted twice.

A turn keeps the settings its seat had when it began (`Game.turn_clock`: the seat's time
zone and quiet hours, written by `turn_settings` when the turn starts): what the player
changes later counts from their next turn, so no change of settings moves the deadline of
a turn already running. Only a vacation (bounded by the seat's budget) and a pause the
table agreed on stop a running turn's clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from games.clock.core import timing as timing
from games.game.core.game import Game
from games.seats.core.seat import Seat


class ClockSeat(Protocol):
    """What the clock needs of a seat (a Seat, or the move path's SeatRow)."""
    @property
    def number(self) -> int: ...
    @property
    def time_zone(self) -> str: ...
    @property
    def quiet_from(self) -> int | None: ...
    @property
    def quiet_to(self) -> int | None: ...
    @property
    def vacation_until(self) -> datetime | None: ...


def zone_of(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def quiet_of(seat: ClockSeat) -> tuple[int, int] | None:
    """The seat's quiet hours as chosen now (they hold its emails at once)."""
    return _quiet(seat.quiet_from, seat.quiet_to)


def _quiet(start: object, end: object) -> tuple[int, int] | None:
    if not isinstance(start, int) or not isinstance(end, int) or start == end:
        return None
    return start, end


def turn_settings(seat: ClockSeat | None) -> dict[str, object]:
    """What a turn beginning now keeps of its seat's own settings (`Game.turn_clock`)."""
    if seat is None:
        return {}
    quiet = quiet_of(seat)
    return {"seat": seat.number, "zone": seat.time_zone,
            "quiet": list(quiet) if quiet is not None else None}


def in_force(game: Game, seat: ClockSeat) -> tuple[ZoneInfo, tuple[int, int] | None]:
    """The time zone and quiet hours the seat's clock counts with: those its running
    turn began with, else (not its turn, or a turn begun before turns kept them) its own."""
    kept = game.turn_clock or {}
    if game.actor == seat.number and kept.get("seat") == seat.number:
        quiet = kept.get("quiet")
        pair = _quiet(*quiet) if isinstance(quiet, list) and len(quiet) == 2 else None
        return zone_of(str(kept.get("zone") or "UTC")), pair
    return zone_of(seat.time_zone), quiet_of(seat)


def table_stops(game: Game) -> list[timing.Interval]:
    found = []
    for pair in game.stops or []:
        try:
            found.append((datetime.fromisoformat(pair[0]), datetime.fromisoformat(pair[1])))
        except (TypeError, ValueError, IndexError):
            continue
    return found


def dates_off(game: Game) -> frozenset[date]:
    found = set()
    for text in game.dates_off or []:
        try:
            found.add(date.fromisoformat(str(text)))
        except ValueError:
            continue
    return frozenset(found)


def rules(game: Game, seat: ClockSeat | None, now: datetime) -> timing.Rules:
    """When `seat`'s clock runs from `now` on (None: no seat, the game's days in UTC)."""
    stops = table_stops(game)
    if seat is None:
        return timing.Rules(weekdays_off=frozenset(game.weekdays_off or []),
                            dates_off=dates_off(game), stops=tuple(stops))
    if seat.vacation_until is not None and seat.vacation_until > now:
        stops.append((now, seat.vacation_until))
    zone, quiet = in_force(game, seat)
    runs = quiet is not None and not uses_bank(game)
    if runs:
        # A fixed time per move: a turn begun in quiet hours counts from their end; the
        # quiet hours after that count as any hours, but no deadline falls inside them
        # (a bank is never charged for them).
        begun = game.turn_started_at
        held = quiet_end(quiet, zone, begun) if begun is not None else None
        if begun is not None and held is not None:
            stops.append((begun, held))
    return timing.Rules(zone=zone,
                        weekdays_off=frozenset(game.weekdays_off or []),
                        dates_off=dates_off(game), quiet=quiet, stops=tuple(stops),
                        quiet_runs=runs)


def uses_bank(game: Game) -> bool:
    return game.bank_hours is not None


def bank_cap(game: Game) -> timedelta:
    hours = game.bank_max_hours if game.bank_max_hours is not None else game.bank_hours
    return timedelta(hours=max(hours or 0, game.bank_hours or 0))


def bank_of(game: Game, number: int) -> timedelta:
    """The seat's bank as its last turn left it (its first turn: the game's bank)."""
    seconds = (game.banks or {}).get(str(number))
    if seconds is None:
        return timedelta(hours=game.bank_hours or 0)
    return timedelta(seconds=int(seconds))


def turn_time(game: Game, number: int) -> timedelta:
    """The running time a turn of seat `number` gives: its bank, or the time per move."""
    if uses_bank(game):
        return bank_of(game, number)
    return timedelta(hours=game.hours_per_move)


def time_left(game: Game, seat: ClockSeat, now: datetime) -> timedelta:
    """The running time left of the seat's turn now (zero once the deadline passed)."""
    if game.deadline_at is None or game.deadline_at <= now:
        return timedelta()
    return timing.charged(rules(game, seat, now), now, game.deadline_at)


def own_time_left(game: Game, seat: ClockSeat, now: datetime) -> timedelta:
    """The running time left of the turn's own time now: up to the deadline its time gave,
    before the quiet hours moved it (what a vacation or a pause moves on)."""
    if game.deadline_at is None or game.deadline_at <= now:
        return timedelta()
    seat_rules = rules(game, seat, now)
    return timing.charged(seat_rules, now, plain_deadline(game, seat_rules, game.deadline_at))


def plain_deadline(game: Game, seat_rules: timing.Rules, deadline: datetime) -> datetime:
    """The deadline the running turn's time gave, before it was moved clear of the quiet
    hours: the one kept with the turn while it still explains the stored `deadline` (a
    moderator may have moved that since), else `deadline` itself."""
    kept = (game.turn_clock or {}).get("plain")
    try:
        plain = datetime.fromisoformat(str(kept)) if kept else None
    except ValueError:
        plain = None
    if plain is not None and timing.clear_of_quiet(seat_rules, plain) == deadline:
        return plain
    return deadline


def charge(game: Game, seat: ClockSeat, now: datetime) -> None:
    """The turn of `seat` ends now: its bank keeps what was left plus the increment, up
    to the cap (games without a bank: nothing)."""
    if not uses_bank(game) or game.turn_started_at is None:
        return
    left = time_left(game, seat, now)
    bank = timing.bank_after(left, timedelta(hours=game.increment_hours), bank_cap(game))
    game.banks = {**(game.banks or {}), str(seat.number): int(bank.total_seconds())}


def actor_seat(game: Game, seats: Mapping[int, ClockSeat] | None) -> ClockSeat | None:
    if game.actor is None:
        return None
    if seats is not None and game.actor in seats:
        return seats[game.actor]
    return Seat.objects.filter(game_id=game.pk, number=game.actor).first()



def spent(game: Game, seat: ClockSeat, now: datetime) -> timedelta:
    """The running time the seat's turn has taken so far."""
    if game.turn_started_at is None:
        return timedelta()
    return timing.charged(rules(game, seat, now), game.turn_started_at, now)


def is_late(game: Game, seat: ClockSeat, now: datetime) -> bool:
    """Whether the seat to act has taken more than half of its turn's time."""
    if game.actor != seat.number or game.deadline_at is None:
        return False
    return spent(game, seat, now) > time_left(game, seat, now)


def late_from(game: Game, seat: ClockSeat, now: datetime) -> datetime | None:
    """When the seat to act will have taken half of its turn's time (from then on it may
    be nudged); None when it is not on the clock."""
    if game.actor != seat.number or game.deadline_at is None or game.turn_started_at is None:
        return None
    seat_rules = rules(game, seat, now)
    total = timing.charged(seat_rules, game.turn_started_at, game.deadline_at)
    try:
        return timing.deadline(seat_rules, game.turn_started_at, total / 2)
    except timing.NeverRuns:
        return None


def late_hours(total: timedelta) -> list[int]:
    """Hours before the deadline of the late player's daily reminders: from half of the
    turn's `total` running time on, one every 24 running hours (the judges' practice).
    A turn of a day or less has the game's reminders only (they come daily anyway)."""
    if total <= timedelta(days=1):
        return []
    half = int(total.total_seconds() // 7200)
    return list(range(half, 0, -24))


def quiet_until(seat: ClockSeat, now: datetime) -> datetime | None:
    """The end of the seat's quiet hours (as chosen now) when `now` falls inside them,
    else None: how long its emails wait."""
    return quiet_end(quiet_of(seat), zone_of(seat.time_zone), now)


def reminder_held_until(seat: ClockSeat, now: datetime,
                        deadline: datetime) -> datetime | None:
    """How long a reminder planned now waits: to the end of the seat's quiet hours, unless
    they end only at or after the deadline (it would come too late: it goes now). The
    reminder sweep plans such a reminder at their start (timing.reminder_moment); this
    covers hours the player changed after the sweep planned it."""
    held = quiet_until(seat, now)
    return held if held is not None and held < deadline else None


def quiet_end(quiet: tuple[int, int] | None, zone: ZoneInfo,
              now: datetime) -> datetime | None:
    """The end of the quiet hours `quiet` (local hours in `zone`) when `now` falls inside
    them, else None."""
    window = timing.quiet_window(quiet, zone, now)
    return window[1] if window is not None else None
