"""The clock as a seat sees it (games.clock.core.rules reads it, clock_timing counts):
the seat page's and the emails' sentences, and the API's `clock` object.

Public to every seat: the game's clock settings, each seat's bank, the table's pauses.
Nothing here is secret, so the same facts go to every seat (in its own zone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.utils import dates as django_dates
from django.utils import formats
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from games.clock.core import rules as clock_rules
from games.clock.core import timing as timing
from games.clock.core.rules import ClockSeat
from games.game.core.aliases import holder_name
from games.game.core.game import Game, SeatKind
from games.seats.core.seat import Seat
from games.seatview.core.dates import local_time

# A proposed pause nobody agreed to lapses after this (games.clock.services.table_pause).
PROPOSAL_LIFETIME = timedelta(days=2)


def duration(delta: timedelta) -> str:
    """"2 days, 4 hours" in the active language (at most two units)."""
    if delta <= timedelta(minutes=1):
        return _("no time")
    start = datetime(2000, 1, 1)
    return timeuntil(start + delta, start, depth=2).replace("\xa0", " ")


def plain(game: Game, seat: clock_rules.ClockSeat | None) -> bool:
    """The clock of the old days: wall time, a fixed time per move, nothing stopped."""
    return (not clock_rules.uses_bank(game) and not game.weekdays_off and not game.dates_off
            and not game.stops and (seat is None or clock_rules.quiet_of(seat) is None))


def seat_left(game: Game, seat: clock_rules.ClockSeat, now: datetime) -> timedelta:
    """The seat's remaining running time: of its turn if it is to act, else what its
    next turn will give (its bank, or the time per move)."""
    if game.actor == seat.number and game.deadline_at is not None:
        return clock_rules.time_left(game, seat, now)
    return clock_rules.turn_time(game, seat.number)


def weekday_words(days: list[int]) -> str:
    return ", ".join(str(django_dates.WEEKDAYS[d]) for d in sorted(days))


def date_words(days: list[str]) -> str:
    shown = []
    for text in days:
        try:
            shown.append(formats.date_format(date.fromisoformat(text), "DATE_FORMAT"))
        except ValueError:
            continue
    return ", ".join(shown)


def settings_sentence(game: Game) -> str:
    """"A time bank of 3 days per seat, plus 1 day per move, up to 5 days." or the pace."""
    if clock_rules.uses_bank(game):
        return _("A time bank of %(bank)s per seat, plus %(increment)s per move, up to "
                 "%(cap)s.") % {
            "bank": duration(timedelta(hours=game.bank_hours or 0)),
            "increment": duration(timedelta(hours=game.increment_hours)),
            "cap": duration(clock_rules.bank_cap(game))}
    return _("%(time)s per move.") % {"time": duration(timedelta(hours=game.hours_per_move))}


def _seats_of(game: Game, seats: Sequence[Seat] | None) -> Sequence[Seat]:
    """The game's seats in number order: `seats` when the caller read them, else read."""
    return seats if seats is not None else list(game.seats.order_by("number"))


def bank_seats(game: Game, seats: Sequence[Seat] | None = None) -> list[Seat]:
    """The seats whose banks the page shows (none without a bank)."""
    return list(_seats_of(game, seats)) if clock_rules.uses_bank(game) else []


def _on_the_clock(game: Game, seats: Sequence[Seat] | None = None) -> Seat | None:
    """The seat to act, when a deadline runs for it."""
    if game.actor is None or game.deadline_at is None or game.status != Game.Status.ACTIVE:
        return None
    return _numbered(_seats_of(game, seats), game.actor)


def _numbered(seats: Sequence[Seat], number: int) -> Seat | None:
    return next((seat for seat in seats if seat.number == number), None)


def _clock_on_the_clock(game: Game,
                        known: Mapping[int, ClockSeat] | None) -> ClockSeat | None:
    """The clock settings of the seat to act, when a deadline runs for it: from the seats
    `known` (a move's answer has just read them all), else read."""
    actor = game.actor
    if known is not None and actor is not None and actor in known \
            and game.deadline_at is not None and game.status == Game.Status.ACTIVE:
        return known[actor]
    return _on_the_clock(game)


def nudge_from(game: Game, seat: Seat, now: datetime,
               known: Mapping[int, ClockSeat] | None = None) -> datetime | None:
    """When `seat` may nudge the seat to act (once more than half of its time is gone):
    None when it cannot at all this turn (its own turn, nobody on the clock, nudged)."""
    actor = _clock_on_the_clock(game, known)
    if actor is None or actor.number == seat.number or game.nudged_version == game.version:
        return None
    return clock_rules.late_from(game, actor, now)


def pause_deciders(game: Game, seats: Sequence[Seat] | None = None) -> set[int]:
    """The seats that decide on the table's pause: people's, not looking for a new one."""
    return {seat.number for seat in _seats_of(game, seats)
            if seat.kind == SeatKind.PERSON and seat.open_since is None}


def votes_needed(deciders: int) -> int:
    """More than half of the deciding seats."""
    return deciders // 2 + 1


@dataclass(frozen=True)
class PauseCount:
    """Where a proposed pause stands: how many deciding seats agreed, how many it needs,
    and when it lapses without them."""

    agreed: int
    needed: int
    lapses_at: datetime


def pause_count(game: Game, seats: Sequence[Seat] | None = None) -> PauseCount | None:
    """The count of the table's pause proposal (None: none was made)."""
    pause = game.pause or {}
    if not pause.get("proposed_at"):
        return None
    deciders = pause_deciders(game, seats)
    return PauseCount(agreed=len(set(pause.get("agreed", [])) & deciders),
                      needed=votes_needed(len(deciders)),
                      lapses_at=datetime.fromisoformat(pause["proposed_at"]) + PROPOSAL_LIFETIME)


def _name(game: Game, seat: Seat) -> str:
    """A seat's name as the table reads it (its alias at an anonymous table)."""
    return holder_name(game, seat.number, seat.player_name, bot=seat.is_bot)


def _pause_words(game: Game, seat: Seat, now: datetime,
                 seats: Sequence[Seat] | None) -> dict[str, Any]:
    pause, step = game.pause or {}, pause_state(game, now)
    by = (_numbered(_seats_of(game, seats), pause["by"])
          if step != "none" and isinstance(pause.get("by"), int) else None)
    count = pause_count(game, seats) if step == "proposed" else None
    return {
        "state": step, "by": _name(game, by) if by else "", "days": pause.get("days"),
        "reason": pause.get("reason", ""),
        "until": local_time(datetime.fromisoformat(pause["until"]), seat.zone)
        if step == "running" else "",
        "agreed": count.agreed if count else 0, "needed": count.needed if count else 0,
        "lapses": local_time(count.lapses_at, seat.zone) if count else "",
        "can_propose": step == "none" and seat.number not in (game.pause_proposers or [])
        and game.status == Game.Status.ACTIVE and not seat.is_bot,
        "can_agree": step == "proposed" and seat.number not in pause.get("agreed", []),
        "can_end": step == "running",
    }


def page_clock(game: Game, seat: Seat, now: datetime,
               seats: Sequence[Seat] | None = None) -> dict[str, Any]:
    """What the seat page shows of the clock. `seats`: the game's, in order, as the
    page read them (none is read again)."""
    banks = [(_name(game, s), duration(seat_left(game, s, now)))
             for s in bank_seats(game, seats)]
    actor = _on_the_clock(game, seats)
    late = actor if actor is not None and clock_rules.is_late(game, actor, now) else None
    nudge_at = nudge_from(game, seat, now,
                          None if seats is None else {s.number: s for s in seats})
    return {
        "late": _name(game, late) if late is not None and late.number != seat.number else "",
        "can_nudge": late is not None and late.number != seat.number
        and game.nudged_version != game.version,
        # Before then: when the seat to act may be nudged, in the reader's zone.
        "nudge_from": local_time(nudge_at, seat.zone)
        if late is None and actor is not None and nudge_at is not None and nudge_at > now
        else "",
        "to_act": _name(game, actor) if actor is not None else "",
        "pause": _pause_words(game, seat, now, seats),
        "settings": settings_sentence(game),
        "left": duration(seat_left(game, seat, now)) if not plain(game, seat) else "",
        "banks": banks,
        "weekdays_off": weekday_words(game.weekdays_off or []),
        "dates_off": date_words(game.dates_off or []),
        "quiet": _("%(start)02d:00 to %(end)02d:00") % {
            "start": seat.quiet_from, "end": seat.quiet_to}
        if clock_rules.quiet_of(seat) else "",
    }


def api_clock(game: Game, seat: Seat, now: datetime,
              known: Mapping[int, ClockSeat] | None = None) -> dict[str, Any]:
    """The API's `clock`: the seat's remaining seconds, every seat's bank, the deadline.
    `known`: every seat's clock settings, as the move or the read just read them (the
    seats are not read again)."""
    bank = clock_rules.uses_bank(game)
    # Only read for the banks (below): none without a bank.
    seats: Sequence[ClockSeat] = bank_seats(game) if known is None else [
        known[number] for number in sorted(known)]
    nudge_at = nudge_from(game, seat, now, known)
    return {
        "mode": "bank" if bank else "per_move",
        "deadline": game.deadline_at.isoformat() if game.deadline_at else None,
        "nudge_from": nudge_at.isoformat() if nudge_at is not None else None,
        "remaining_seconds": int(seat_left(game, seat, now).total_seconds()),
        "hours_per_move": None if bank else game.hours_per_move,
        "bank_hours": game.bank_hours, "increment_hours": game.increment_hours if bank else None,
        "bank_max_hours": int(clock_rules.bank_cap(game).total_seconds() // 3600)
        if bank else None,
        "banks": {str(s.number): int(seat_left(game, s, now).total_seconds())
                  for s in seats} if bank else None,
        "weekdays_off": [timing.WEEKDAYS[d] for d in sorted(game.weekdays_off or [])],
        "dates_off": list(game.dates_off or []),
        "quiet_hours": list(clock_rules.quiet_of(seat) or []) or None,
    }


def api_pause(game: Game, now: datetime) -> dict[str, Any] | None:
    """The table's pause as the API shows it (None: none proposed or running)."""
    pause = game.pause or {}
    step = pause_state(game, now)
    if step == "none":
        return None
    count = pause_count(game) if step == "proposed" else None
    return {"state": step, "by": pause.get("by"), "days": pause.get("days"),
            "reason": pause.get("reason"), "agreed": pause.get("agreed", []),
            "needed": count.needed if count else None,
            "lapses_at": count.lapses_at.isoformat() if count else None,
            "until": pause.get("until"), "end_votes": pause.get("end_votes", [])}


def pause_state(game: Game, now: datetime) -> str:
    """"none", "proposed" (for two days) or "running" (games.clock.services.table_pause)."""
    pause = game.pause or {}
    if not pause:
        return "none"
    if pause.get("started_at"):
        return "running" if datetime.fromisoformat(pause["until"]) > now else "none"
    if datetime.fromisoformat(pause["proposed_at"]) + PROPOSAL_LIFETIME > now:
        return "proposed"
    return "none"
