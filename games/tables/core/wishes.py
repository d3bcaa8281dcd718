"""What a player asks for when they look for an open table ("Find me a table" on the home,
POST /api/me/<token>/tables), read and checked before anything is written.

    ruleset         "base" or "saboteur2" (default "base")
    players         the table's size: a number (4), a range as text ("3-5") or as an
                    object ({"min": 3, "max": 5}); every size must be one the ruleset
                    allows (base 3-10, Saboteur 2 2-12)
    hours_per_move  the pace, 1 to 336 (default DEFAULT_HOURS_PER_MOVE)
    clock           a clock preset's name (games.clock.core.clock_presets): its pace and
                    clock instead of hours_per_move ("" or none: the fixed hours per move;
                    hours_per_move given beside it must be the preset's)
    language        the table's language, one of the site's (default: the home's)
    rated           whether its rounds count for the ratings (default false)
    bots_fill       whether bots may take the empty seats at the end of the wait
                    (default false)
    anonymous       an anonymous table: its players are known by aliases until its game
                    ends (default false); it matches anonymous tables only, and the others
                    only tables that are not
    table           (the JSON API) a listed table's number to join instead

Every field's type is checked before any value is looked at (check_types).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from games.clock.core.clock_presets import NAMES, preset_named, unknown_preset
from games.engine import rules_for
from games.game.core.game import MAX_HOURS_PER_MOVE
from games.kit.service_errors import ServiceError

RULESETS = ("base", "saboteur2")
RANGE = re.compile(r"^\s*(\d{1,2})\s*(?:-\s*(\d{1,2})\s*)?$")


class TableError(ServiceError):
    """A refused table request: `status` is the HTTP answer (400 bad input, 404 no such
    table, 409 it cannot be done now); `field` the request's field at fault, if one is."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(code, message, status=status)
        self.field = field


@dataclass(frozen=True)
class Wish:
    ruleset: str
    low: int  # the fewest players wanted
    high: int  # the most
    hours_per_move: int
    language: str
    rated: bool
    bots_fill: bool
    clock: str = ""  # a clock preset's name; "": the fixed hours per move
    anonymous: bool = False


def _bad(message: str, field: str) -> TableError:
    return TableError(400, "bad_request", message, field)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_errors() -> dict[str, tuple[Callable[[Any], bool], str]]:
    """Each field's type test, and what to say when a value fails it (in the language
    active now)."""
    return {
        "ruleset": (lambda v: isinstance(v, str), _('"ruleset" is base or saboteur2.')),
        "players": (lambda v: _whole(v) or isinstance(v, str | Mapping), _(
            '"players" is a number, a range such as "3-5", or {"min": 3, "max": 5}.')),
        "hours_per_move": (_whole, _('"hours_per_move" is a whole number of hours.')),
        "language": (lambda v: isinstance(v, str), _(
            '"language" is a language code such as "en".')),
        "rated": (lambda v: isinstance(v, bool), _("%(field)s is true or false.")
                  % {"field": "rated"}),
        "bots_fill": (lambda v: isinstance(v, bool), _("%(field)s is true or false.")
                      % {"field": "bots_fill"}),
        "anonymous": (lambda v: isinstance(v, bool), _("%(field)s is true or false.")
                      % {"field": "anonymous"}),
        "table": (_whole, _('"table" is a table\'s number.')),
        "clock": (lambda v: isinstance(v, str), _(
            '"clock" is the name of a clock preset: %(names)s.') % {"names": ", ".join(NAMES)}),
    }


def check_types(data: Mapping[str, Any]) -> None:
    """TableError (400, naming the field) for the first field whose value has the wrong
    type (a list or an object where a value belongs, a string for a flag, null), before
    any value is compared or looked up."""
    for field, (right, message) in _type_errors().items():
        if field in data and not right(data[field]):
            raise _bad(message, field)


def _players(value: Any) -> tuple[int, int]:
    if _whole(value):
        return value, value
    if isinstance(value, str) and (found := RANGE.match(value)):
        low = int(found.group(1))
        return low, int(found.group(2) or low)
    if isinstance(value, Mapping) and set(value) == {"min", "max"}:
        low, high = value["min"], value["max"]
        if _whole(low) and _whole(high):
            return low, high
    raise _bad(_("Give the number of players as a number or a range such as 3-5."), "players")


def read_wish(data: Mapping[str, Any], *, language: str) -> Wish:
    """The wish in `data` (a JSON object or a form's cleaned values), or TableError
    (400) saying what is wrong. `language`: the home's, when none is asked for."""
    check_types(data)
    ruleset = data.get("ruleset", "base")
    if ruleset not in RULESETS:
        raise TableError(400, "unknown_ruleset", _("Unknown ruleset %(ruleset)s: choose base "
                                                   "or saboteur2.") % {"ruleset": ruleset},
                         "ruleset")
    rules = rules_for(ruleset)
    low, high = _players(data.get("players", rules.min_seats))
    if not rules.min_seats <= low <= high <= rules.max_seats:
        raise TableError(400, "bad_players", _(
            "This ruleset is played by %(min)s to %(max)s players: give a number or a range "
            "within it.") % {"min": rules.min_seats, "max": rules.max_seats}, "players")
    clock, hours = read_clock(data)
    chosen = data.get("language") or language
    if chosen not in {code for code, _label in settings.LANGUAGES}:
        raise _bad(_("Unknown language %(code)s.") % {"code": chosen}, "language")
    return Wish(ruleset=ruleset, low=low, high=high, hours_per_move=hours, language=chosen,
                rated=data.get("rated", False), bots_fill=data.get("bots_fill", False),
                clock=clock, anonymous=data.get("anonymous", False))


def read_clock(data: Mapping[str, Any]) -> tuple[str, int]:
    """The clock preset's name ("" for none) and the pace the request asks for; TableError
    (400) for an unknown preset, a pace out of range, or a pace beside a preset that is
    not the preset's."""
    name = data.get("clock") or ""
    hours = data.get("hours_per_move", settings.DEFAULT_HOURS_PER_MOVE)
    if name:
        preset = preset_named(name)
        if preset is None:
            raise _bad(unknown_preset(name), "clock")
        if "hours_per_move" in data and hours != preset.hours_per_move:
            raise _bad(_("A clock preset sets the pace: leave out hours_per_move, or give "
                         "the preset's (%(hours)s).") % {"hours": preset.hours_per_move},
                       "hours_per_move")
        return name, preset.hours_per_move
    if not _whole(hours) or not 1 <= hours <= MAX_HOURS_PER_MOVE:
        raise _bad(_("The pace must be between 1 and %(max)s hours per move.")
                   % {"max": MAX_HOURS_PER_MOVE}, "hours_per_move")
    return "", hours
