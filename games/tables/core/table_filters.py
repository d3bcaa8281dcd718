"""Which forming tables a reader asks to see (/tables/ and GET /api/tables/): by
language, ruleset, pace, rated and anonymous. Read from the query string and checked before any
table is looked at; a value we do not know is refused with the field at fault.

    language   one of the site's languages, or "any"; none given: the reader's language
    ruleset    "base" or "saboteur2"; none: both
    pace       "fast" (under a day a move), "daily" (a day or two) or "slow" (more)
    rated      "yes" or "no"; none: both
    anonymous  "yes" or "no"; none: both
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _

from games.game.core.game import MAX_HOURS_PER_MOVE
from games.tables.core.wishes import RULESETS, TableError

# A pace's hours per move, both ends included.
PACES: dict[str, tuple[int, int]] = {"fast": (1, 23), "daily": (24, 48),
                                     "slow": (49, MAX_HOURS_PER_MOVE)}
ANY = "any"


def pace_of(hours_per_move: int) -> str:
    """The pace a table of this many hours per move counts under (fast, daily, slow)."""
    return next((pace for pace, (low, high) in PACES.items() if low <= hours_per_move <= high),
                "slow")


@dataclass(frozen=True)
class TableFilter:
    language: str | None = None  # None: every language
    ruleset: str | None = None
    pace: str | None = None
    rated: bool | None = None
    anonymous: bool | None = None

    def as_json(self) -> dict[str, object]:
        return {"language": self.language or ANY, "ruleset": self.ruleset or ANY,
                "pace": self.pace or ANY, "rated": self.rated, "anonymous": self.anonymous}


def _choice(query: Mapping[str, str], name: str, allowed: set[str]) -> str | None:
    value = query.get(name, "").strip().lower()
    if value in ("", ANY):
        return None
    if value not in allowed:
        raise TableError(400, "bad_request", _("Unknown %(field)s “%(value)s”: choose one of "
                                               "%(allowed)s.") % {
            "field": name, "value": value[:20], "allowed": ", ".join(sorted(allowed))}, name)
    return value


def read_filter(query: Mapping[str, str], reader_language: str) -> TableFilter:
    """The reader's filter; the reader's language unless they chose another or "any"."""
    languages = {code for code, _name in settings.LANGUAGES}
    language = query.get("language", "").strip().lower() or reader_language[:2]
    rated = _choice(query, "rated", {"yes", "no"})
    anonymous = _choice(query, "anonymous", {"yes", "no"})
    return TableFilter(language=_choice({"language": language}, "language", languages),
                       ruleset=_choice(query, "ruleset", set(RULESETS)),
                       pace=_choice(query, "pace", set(PACES)),
                       rated=None if rated is None else rated == "yes",
                       anonymous=None if anonymous is None else anonymous == "yes")
