"""A tournament's settings as a host or the operator gives them (`createtournament`),
read and checked before anything is written, and the refusals of the tournament's acts.

    name            the event's name, one line
    ruleset         "base" or "saboteur2"
    players         the table size: a number (5), a range ("4-6"), or "even" (any size
                    the ruleset allows, as even as the field allows); base 3-10,
                    Saboteur 2 2-12
    rounds          1 to 12
    hours_per_move  the pace, 1 to 336
    clock           (optional) the games' clock: a ClockSettings already checked
                    (games.clock.core.clock_setup.clock_settings: a bank, its increment
                    and cap, days off), None for the fixed time per move
    clock_preset    (optional) instead of both: a clock preset's name
                    (games.clock.core.clock_presets, the setup page's), its pace and clock
    language        the event's language, one of the site's
    rated           whether its rounds count for the ratings
    duplicate       the same deal at every table of a round (of the same size)
    cap             the most players, 2 to 1000 (bots fill a short table)
    signup_closes   when sign-up closes and round 1 is paired (in the future)
    round_days      how long a round lasts at most, 1 to 90 days
    advance_share   the share of a round's tables that, once ended, lets the next round
                    pair the players whose tables ended (0.5 to 1)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clock.core.clock_presets import preset_named, unknown_preset
from games.clock.core.clock_setup import ClockSettings, clock_fields
from games.engine import rules_for
from games.game.core.game import MAX_HOURS_PER_MOVE
from games.kit.service_errors import ServiceError
from games.kit.text import is_clean_line

RULESETS = ("base", "saboteur2")
SIZE = re.compile(r"^\s*(\d{1,2})\s*(?:-\s*(\d{1,2})\s*)?$")
MAX_ROUNDS = 12
MAX_CAP = 1000
MAX_ROUND_DAYS = 90


class TournamentError(ServiceError):
    """A refused tournament request: `status` is the HTTP answer (400 bad input, 404 no
    such event, 409 not now); `field` the request's field at fault, if one is."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(code, message, status=status)
        self.field = field


@dataclass(frozen=True)
class EventSettings:
    name: str
    ruleset: str
    min_size: int
    max_size: int
    rounds: int
    hours_per_move: int
    clock: dict[str, Any]  # the Game row's clock fields (clock_fields); {}: none
    language: str
    rated: bool
    duplicate: bool
    cap: int
    signup_closes_at: datetime
    round_days: int
    advance_share: float


def _bad(message: str, field: str) -> TournamentError:
    return TournamentError(400, "bad_request", message, field)


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(_("%(field)s is a whole number from %(low)s to %(high)s.")
                   % {"field": field, "low": low, "high": high}, field)
    return value


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(_("%(field)s is true or false.") % {"field": field}, field)
    return value


def _clock(value: Any) -> dict[str, Any]:
    if value is not None and not isinstance(value, ClockSettings):
        raise _bad(_("The clock is a time bank with days off, or none."), "clock")
    return clock_fields(value)


def stored_clock(fields: dict[str, Any]) -> ClockSettings | None:
    """The event's clock as create_game takes it (None: the fixed time per move)."""
    if not fields:
        return None
    return ClockSettings(
        bank_hours=fields.get("bank_hours"), increment_hours=fields.get("increment_hours", 0),
        bank_max_hours=fields.get("bank_max_hours"),
        weekdays_off=frozenset(int(day) for day in fields.get("weekdays_off", [])),
        dates_off=tuple(date.fromisoformat(day) for day in fields.get("dates_off", [])))


def size_setting(ruleset: str, fewest: int, most: int) -> str:
    """A stored table size as a host writes it (`table_size` reads it back): "even" for
    the ruleset's whole range, one number, or a range."""
    rules = rules_for(ruleset)
    if (fewest, most) == (rules.min_seats, rules.max_seats):
        return "even"
    return str(fewest) if fewest == most else f"{fewest}-{most}"


def table_size(value: Any, ruleset: str) -> tuple[int, int]:
    """The table size asked for, as (fewest, most) players at a table."""
    rules = rules_for(ruleset)
    low = high = 0
    if value == "even":
        low, high = rules.min_seats, rules.max_seats
    elif isinstance(value, int) and not isinstance(value, bool):
        low = high = value
    elif isinstance(value, str) and (found := SIZE.match(value)):
        low, high = int(found.group(1)), int(found.group(2) or found.group(1))
    if not rules.min_seats <= low <= high <= rules.max_seats:
        raise TournamentError(400, "bad_players", _(
            "This ruleset is played by %(min)s to %(max)s players: give a number or a range "
            "within it.") % {"min": rules.min_seats, "max": rules.max_seats}, "players")
    return low, high


def _with_preset(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The settings with a clock preset's pace and clock in place of its name; a preset
    beside a clock or a pace of its own is refused (which would count?)."""
    name = data.get("clock_preset")
    if name is None or name == "":
        return data
    preset = preset_named(name) if isinstance(name, str) else None
    if preset is None:
        raise _bad(unknown_preset(name), "clock_preset")
    if data.get("clock") is not None or data.get("hours_per_move", preset.hours_per_move) \
            != preset.hours_per_move:
        raise _bad(_("A clock preset sets the pace and the clock: give the preset alone."),
                   "clock_preset")
    return {**data, "hours_per_move": preset.hours_per_move, "clock": preset.clock}


def read_settings(data: Mapping[str, Any]) -> EventSettings:
    """The settings in `data`, or TournamentError (400) naming the field at fault."""
    name = data.get("name", "")
    if not isinstance(name, str) or not name.strip() or not is_clean_line(name.strip()):
        raise _bad(_("The event needs a name on one line."), "name")
    ruleset = data.get("ruleset", "base")
    if ruleset not in RULESETS:
        raise TournamentError(400, "unknown_ruleset", _(
            "Unknown ruleset %(ruleset)s: choose base or saboteur2.") % {"ruleset": ruleset},
            "ruleset")
    low, high = table_size(data.get("players", "even"), ruleset)
    data = _with_preset(data)
    hours = data.get("hours_per_move", settings.DEFAULT_HOURS_PER_MOVE)
    if isinstance(hours, bool) or not isinstance(hours, int) or not (
            1 <= hours <= MAX_HOURS_PER_MOVE):
        raise _bad(_("The pace must be between 1 and %(max)s hours per move.")
                   % {"max": MAX_HOURS_PER_MOVE}, "hours_per_move")
    language = data.get("language", settings.LANGUAGE_CODE)
    if language not in {code for code, _label in settings.LANGUAGES}:
        raise _bad(_("Unknown language %(code)s.") % {"code": language}, "language")
    closes = data.get("signup_closes")
    if not isinstance(closes, datetime) or closes <= timezone.now():
        raise _bad(_("Sign-up must close at a time still to come."), "signup_closes")
    share = data.get("advance_share", 0.75)
    if isinstance(share, bool) or not isinstance(share, int | float) or not 0.5 <= share <= 1:
        raise _bad(_("%(field)s is a share from 0.5 to 1.") % {"field": "advance_share"},
                   "advance_share")
    return EventSettings(
        name=name.strip()[:100], ruleset=ruleset, min_size=low, max_size=high,
        rounds=_whole(data.get("rounds", 3), "rounds", 1, MAX_ROUNDS),
        hours_per_move=hours, clock=_clock(data.get("clock")), language=language,
        rated=_flag(data.get("rated", False), "rated"),
        duplicate=_flag(data.get("duplicate", False), "duplicate"),
        cap=_whole(data.get("cap", 64), "cap", 2, MAX_CAP),
        signup_closes_at=closes,
        round_days=_whole(data.get("round_days", 30), "round_days", 1, MAX_ROUND_DAYS),
        advance_share=float(share))
