"""A game's clock as its host chose it (the setup page, `creategame`), checked once:

    ClockSettings       bank, increment and cap (hours; no bank: the fixed time per
                        move), weekdays off, dates off
    clock_settings(...) the settings from what a host typed, or a SetupError that says
                        what is wrong (a negative bank, an unknown weekday, ...)
    clock_fields(chosen) the Game row's fields for them

Nothing here writes: create_game (games.setup.services.game_setup) stores the row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils.translation import gettext as _

from games.clock.core import timing as timing
from games.game.core.clock_fields import MAX_BANK_HOURS
from games.kit.service_errors import SetupError

MAX_DATES_OFF = 60


@dataclass(frozen=True)
class ClockSettings:
    bank_hours: int | None = None
    increment_hours: int = 0
    bank_max_hours: int | None = None
    weekdays_off: frozenset[int] = frozenset()
    dates_off: tuple[date, ...] = ()


def _hours(value: int | None, what: str, low: int) -> int | None:
    if value is None:
        return None
    if not low <= value <= MAX_BANK_HOURS:
        raise SetupError("bad_clock", _("%(what)s must be between %(low)s and %(high)s hours.")
                         % {"what": what, "low": low, "high": MAX_BANK_HOURS})
    return value


def weekdays(text: str) -> frozenset[int]:
    """"sat,sun" -> {5, 6}, or a SetupError naming the word not understood."""
    try:
        return timing.parse_weekdays(text)
    except timing.UnknownWeekday as error:
        raise SetupError("bad_clock", _("Unknown weekday %(day)s: use mon, tue, wed, thu, "
                                        "fri, sat, sun.") % {"day": str(error)}) from None
    except timing.TooManyDaysOff:
        raise SetupError("bad_clock", _("At most %(n)s weekdays can be off: the clock "
                                        "must run on two days of each week.")
                         % {"n": timing.MAX_WEEKDAYS_OFF}) from None


def dates(texts: Iterable[str]) -> tuple[date, ...]:
    found: set[date] = set()
    for text in (t.strip() for t in texts):
        if not text:
            continue
        try:
            found.add(date.fromisoformat(text))
        except ValueError:
            raise SetupError("bad_clock", _("Not a date: %(text)s (write it as 2026-12-25).")
                             % {"text": text[:20]}) from None
    if len(found) > MAX_DATES_OFF:
        raise SetupError("bad_clock", _("At most %(n)s dates can be off.")
                         % {"n": MAX_DATES_OFF})
    return tuple(sorted(found))


def clock_settings(*, bank_hours: int | None = None, increment_hours: int | None = None,
                   bank_max_hours: int | None = None, days_off: str = "",
                   dates_off: Iterable[str] = ()) -> ClockSettings:
    """The host's choices checked; SetupError (nothing created) when one is wrong."""
    bank = _hours(bank_hours, _("The time bank"), 1)
    increment = _hours(increment_hours, _("The time added per move"), 0) or 0
    cap = _hours(bank_max_hours, _("The time bank's cap"), 1)
    if bank is None and (increment or cap is not None):
        raise SetupError("bad_clock", _("Time added per move and a cap need a time bank."))
    if bank is not None and cap is not None and cap < bank:
        raise SetupError("bad_clock", _("The time bank's cap cannot be less than the bank."))
    return ClockSettings(bank, increment, cap, weekdays(days_off), dates(dates_off))


def clock_fields(chosen: ClockSettings | None) -> dict[str, Any]:
    """The Game row's fields for these settings (none: the model's defaults)."""
    if chosen is None:
        return {}
    return {"bank_hours": chosen.bank_hours, "increment_hours": chosen.increment_hours,
            "bank_max_hours": chosen.bank_max_hours,
            "weekdays_off": sorted(chosen.weekdays_off),
            "dates_off": [d.isoformat() for d in chosen.dates_off]}
