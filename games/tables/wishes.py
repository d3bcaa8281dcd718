"""What a player asks for when they look for an open table ("Find me a table" on the home,
POST /api/me/<token>/tables), read and checked before anything is written.

    ruleset         "base" or "saboteur2" (default "base")
    players         the table's size: a number (4), a range as text ("3-5") or as an
                    object ({"min": 3, "max": 5}); every size must be one the ruleset
                    allows (base 3-10, Saboteur 2 2-12)
    hours_per_move  the pace, 1 to 336 (default DEFAULT_HOURS_PER_MOVE)
    language        the table's language, one of the site's (default: the home's)
    rated           whether its rounds count for the ratings (default false)
    bots_fill       whether bots may take the empty seats at the end of the wait
                    (default false)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from games.engine import rules_for
from games.models import MAX_HOURS_PER_MOVE
from games.play.service_errors import ServiceError

RULESETS = ("base", "saboteur2")
RANGE = re.compile(r"^\s*(\d{1,2})\s*(?:-\s*(\d{1,2})\s*)?$")


class TableError(ServiceError):
    """A refused table request: `status` is the HTTP answer (400 bad input, 404 no such
    table, 409 it cannot be done now)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code, message)
        self.status = status


@dataclass(frozen=True)
class Wish:
    ruleset: str
    low: int  # the fewest players wanted
    high: int  # the most
    hours_per_move: int
    language: str
    rated: bool
    bots_fill: bool


def _bad(message: str) -> TableError:
    return TableError(400, "bad_request", message)


def _players(value: Any) -> tuple[int, int]:
    if isinstance(value, bool):
        raise _bad(_("Give the number of players as a number or a range such as 3-5."))
    if isinstance(value, int):
        return value, value
    if isinstance(value, str) and (found := RANGE.match(value)):
        low = int(found.group(1))
        return low, int(found.group(2) or low)
    if isinstance(value, Mapping) and set(value) == {"min", "max"}:
        low, high = value["min"], value["max"]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
            return low, high
    raise _bad(_("Give the number of players as a number or a range such as 3-5."))


def _flag(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise _bad(_("%(field)s is true or false.") % {"field": name})
    return value


def read_wish(data: Mapping[str, Any], *, language: str) -> Wish:
    """The wish in `data` (a JSON object or a form's cleaned values), or TableError
    (400) saying what is wrong. `language`: the home's, when none is asked for."""
    ruleset = data.get("ruleset", "base")
    if ruleset not in RULESETS:
        raise TableError(400, "unknown_ruleset", _("Unknown ruleset %(ruleset)s: choose base "
                                                   "or saboteur2.") % {"ruleset": ruleset})
    rules = rules_for(ruleset)
    low, high = _players(data.get("players", rules.min_seats))
    if not rules.min_seats <= low <= high <= rules.max_seats:
        raise TableError(400, "bad_players", _(
            "This ruleset is played by %(min)s to %(max)s players: give a number or a range "
            "within it.") % {"min": rules.min_seats, "max": rules.max_seats})
    hours = data.get("hours_per_move", settings.DEFAULT_HOURS_PER_MOVE)
    if isinstance(hours, bool) or not isinstance(hours, int) or not (
            1 <= hours <= MAX_HOURS_PER_MOVE):
        raise _bad(_("The pace must be between 1 and %(max)s hours per move.")
                   % {"max": MAX_HOURS_PER_MOVE})
    chosen = data.get("language") or language
    if chosen not in {code for code, _label in settings.LANGUAGES}:
        raise _bad(_("Unknown language %(code)s.") % {"code": chosen})
    return Wish(ruleset=ruleset, low=low, high=high, hours_per_move=hours, language=chosen,
                rated=_flag(data, "rated"), bots_fill=_flag(data, "bots_fill"))
