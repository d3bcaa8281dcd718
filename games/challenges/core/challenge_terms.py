"""What a challenger asks for (the home's "Challenge a player" form, POST
/api/me/<token>/challenges), read and checked before anything is looked up or written:

    to              the public name of the player challenged, or a list of names (the
                    others are invited by name too); 1 to seats - 1 names
    players         the number of seats (default: the names and the challenger, at least
                    the ruleset's fewest); seats nobody is named for are filled later, at
                    an open table, by strangers (or bots at the end of its wait, if
                    bots_fill)
    ruleset, hours_per_move or clock (a clock preset), language, rated, bots_fill:
                    as "Find me a table" (games.tables.core.wishes), whose reader checks them

Every field's type is checked before any value is looked at.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.engine import rules_for
from games.kit.service_errors import ServiceError
from games.kit.text import is_clean_line
from games.tables.core.wishes import RULESETS, TableError, Wish, check_types, read_wish

LONGEST_NAME = 30  # a public name's most letters (games.people.core.public_names)


class ChallengeError(ServiceError):
    """A refused challenge request: `status` is the HTTP answer (400 bad input, 404 no
    such challenge or nobody to challenge, 409 not now, 429 too many today); `field` the
    request's field at fault; `retry_after` seconds until the daily cap lets one more."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(code, message, status=status)
        self.field = field
        self.retry_after = retry_after


@dataclass(frozen=True)
class Terms:
    names: tuple[str, ...]  # the public names challenged, as written
    wish: Wish  # the table: low == high == its seats

    @property
    def seats(self) -> int:
        return self.wish.high


def _bad(message: str, field: str) -> ChallengeError:
    return ChallengeError(400, "bad_request", message, field)


def _names(value: Any) -> tuple[str, ...]:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(
            isinstance(name, str) for name in names):
        raise _bad(_('"to" is the public name of the player you challenge, or a list of '
                     'names.'), "to")
    cleaned = tuple(" ".join(name.split()) for name in names)
    if any(not name or len(name) > LONGEST_NAME or not is_clean_line(name)
           for name in cleaned):
        raise _bad(_("A public name has 1 to %(n)s visible letters and signs, on one line.")
                   % {"n": LONGEST_NAME}, "to")
    if len({name.casefold() for name in cleaned}) != len(cleaned):
        raise _bad(_("Name each player once."), "to")
    return cleaned


def read_terms(data: Mapping[str, Any], *, language: str) -> Terms:
    """The terms in `data` (a JSON object or the form's values), or ChallengeError (400)
    naming the field at fault. `language`: the challenger's home's, when none is asked."""
    try:
        check_types(data)
        names = _names(data.get("to"))
        ruleset = data.get("ruleset", "base")
        rules = rules_for(ruleset) if ruleset in RULESETS else None
        fewest = max(len(names) + 1, rules.min_seats if rules else 0)
        seats = data.get("players", fewest)
        wish = read_wish({**data, "players": seats}, language=language)
    except TableError as refused:
        raise ChallengeError(refused.status, refused.code, refused.message,
                             refused.field) from None
    if wish.low != wish.high:
        raise ChallengeError(400, "bad_players", _(
            "A challenge's table has one size: give the number of seats."), "players")
    if wish.high < len(names) + 1:
        raise ChallengeError(400, "bad_players", _(
            "The table needs a seat for you and each player you name: at least %(n)s.")
            % {"n": len(names) + 1}, "players")
    return Terms(names=names, wish=wish)
