"""The clock presets: a few clocks with a name, the one list the setup page, open tables
("Find me a table", /tables/), tournaments (`createtournament --clock-preset`) and
challenges offer (docs/playing.md "The clock").

A preset is a pace (`hours_per_move`: the fixed time per move, and the pace /tables/
counts a table under) and, for a time bank, its ClockSettings (bank, increment, cap,
weekdays off). Its name is a stable machine word (the API's `"clock"`); its words are
made from its values in the reader's language, so they never tell a different clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils.translation import gettext as _

from games.clock.core.clock_facts import duration, weekday_words
from games.clock.core.clock_setup import ClockSettings

DAY = 24


@dataclass(frozen=True)
class ClockPreset:
    name: str
    hours_per_move: int
    clock: ClockSettings | None = None  # None: the fixed time per move

    @property
    def words(self) -> str:
        return clock_words(self.hours_per_move, self.clock)


WEEKEND = frozenset({5, 6})
BANK = ClockSettings(bank_hours=3 * DAY, increment_hours=DAY, bank_max_hours=5 * DAY)

PRESETS: tuple[ClockPreset, ...] = (
    ClockPreset("hours_8", 8),
    ClockPreset("day", DAY),
    ClockPreset("bank_3_days", DAY, BANK),
    ClockPreset("bank_weekends_off", DAY, ClockSettings(
        bank_hours=BANK.bank_hours, increment_hours=BANK.increment_hours,
        bank_max_hours=BANK.bank_max_hours, weekdays_off=WEEKEND)),
    ClockPreset("two_days", 2 * DAY),
    ClockPreset("bank_7_days_weekends_off", 2 * DAY, ClockSettings(
        bank_hours=7 * DAY, increment_hours=2 * DAY, bank_max_hours=14 * DAY,
        weekdays_off=WEEKEND)),
)
NAMES = tuple(preset.name for preset in PRESETS)


def preset_named(name: str) -> ClockPreset | None:
    """The preset of this name; None for any other value."""
    return next((preset for preset in PRESETS if preset.name == name), None)


def unknown_preset(name: object) -> str:
    """What a refusal of a preset name that is none says (open tables, tournaments)."""
    return _("Unknown clock preset “%(value)s”: choose one of %(names)s.") % {
        "value": str(name)[:30], "names": ", ".join(NAMES)}


def preset_choices() -> list[tuple[str, str]]:
    """(name, words) of every preset, for a form's choice, in the language active now."""
    return [(preset.name, preset.words) for preset in PRESETS]


def matching_preset(hours_per_move: int, clock: ClockSettings | None) -> ClockPreset | None:
    """The preset with exactly this pace and clock (a tournament keeps the clock's
    values, not the preset's name); None when none has them."""
    plain = clock is None or clock == ClockSettings()
    for preset in PRESETS:
        if preset.hours_per_move != hours_per_move:
            continue
        if (preset.clock is None and plain) or preset.clock == clock:
            return preset
    return None


def clock_words(hours_per_move: int, clock: ClockSettings | None) -> str:
    """"1 day per move." or "A time bank of 3 days per seat, plus 1 day per move, up to
    5 days. No clock runs on Saturday, Sunday (in each player's time zone).\""""
    if clock is None or clock.bank_hours is None:
        words = _("%(time)s per move.") % {"time": duration(timedelta(hours=hours_per_move))}
    else:
        cap = clock.bank_max_hours or clock.bank_hours
        words = _("A time bank of %(bank)s per seat, plus %(increment)s per move, up to "
                  "%(cap)s.") % {"bank": duration(timedelta(hours=clock.bank_hours)),
                                 "increment": duration(timedelta(hours=clock.increment_hours)),
                                 "cap": duration(timedelta(hours=max(cap, clock.bank_hours)))}
    if clock is not None and clock.weekdays_off:
        words += " " + _("No clock runs on %(days)s (in each player's time zone).") % {
            "days": weekday_words(sorted(clock.weekdays_off))}
    return words
