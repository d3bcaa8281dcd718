"""The ratings as players see them: on their home (and its JSON twin), and, for the players
who chose a public name and to list their ratings, beside that name at open tables and on
/ratings/ (a player who did not choose to list them has no number anywhere public); and,
on a rated game's pages, which of its rounds counted.

A rating is shown as an Elo-like number (games.ratings.core.model.Skill.shown), with the rated
rounds it counts and whether it is provisional (the model knows little of it yet, or no
longer: games.ratings.core.model.settled_until), never the number alone. Its certainty decays
with months without a rated round; the number shown does not (mu stays), the uncertainty
behind it does. Reliability (deadlines missed) is shown beside a rating by the pages,
never mixed into it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import PublicName
from games.ratings.core.model import Skill
from games.ratings.core.rating_rows import PlayerRating, RatedRound
from games.ratings.services import qualifying

RULESETS = ("base", "saboteur2")
LISTED = 100  # players on /ratings/ per ruleset


@dataclass(frozen=True)
class Shown:
    rating: int
    rounds: int
    provisional: bool

    def as_json(self) -> dict[str, Any]:
        return {"rating": self.rating, "rounds": self.rounds, "provisional": self.provisional}


def _shown(row: PlayerRating, now: datetime) -> Shown:
    return Shown(rating=Skill(row.mu, row.sigma).shown, rounds=row.rounds,
                 provisional=row.settled_until is None or row.settled_until < now)


def ratings_of(address: str) -> dict[str, Shown]:
    """The address's rating in each ruleset it has played rated rounds of (for its own
    home only)."""
    digest = mailbox_key_hash(address)
    if not digest:
        return {}
    now = timezone.now()
    return {row.ruleset: _shown(row, now) for row in
            PlayerRating.objects.filter(mailbox=digest).order_by("ruleset")}


def listed_ratings_by_key(keys: Iterable[str], ruleset: str) -> dict[str, Shown]:
    """The ratings in one ruleset of those of several people (by mailbox key hash) who
    chose to list them: one query. Nobody else's number is ever shown to others."""
    listing = PublicName.objects.filter(ratings_listed=True, mailbox__in=set(keys))
    now = timezone.now()
    return {row.mailbox: _shown(row, now) for row in PlayerRating.objects.filter(
        mailbox__in=listing.values("mailbox"), ruleset=ruleset)}


@dataclass(frozen=True)
class Listed:
    name: str
    shown: Shown

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, **self.shown.as_json()}


def listed(ruleset: str) -> list[Listed]:
    """/ratings/: the players with a public name who opted in, settled ratings first,
    highest first (a provisional rating is listed after every settled one). Two
    queries, however many players."""
    now = timezone.now()
    opted_in = PublicName.objects.filter(ratings_listed=True).values("mailbox")
    rows = list(PlayerRating.objects.filter(ruleset=ruleset, mailbox__in=opted_in)
                .annotate(settled=Case(When(settled_until__gte=now, then=Value(1)),
                                       default=Value(0)))
                .order_by("-settled", "-mu", "mailbox")[:LISTED])
    names = dict(PublicName.objects.filter(mailbox__in=[row.mailbox for row in rows])
                 .values_list("mailbox", "name"))
    return [Listed(name=names[row.mailbox], shown=_shown(row, now)) for row in rows
            if row.mailbox in names]


@dataclass(frozen=True)
class RoundCounted:
    """A round of a rated game once its roles were revealed: whether it counted for the
    ratings, and if not why (games.ratings.services.qualifying's reason, and in words)."""

    round: int
    counted: bool
    why: str

    @property
    def reason(self) -> str:
        return reason_text(self.why)

    def as_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"round": self.round, "counted": self.counted}
        if not self.counted:
            answer.update(why=self.why, reason=self.reason)
        return answer


def reason_text(why: str) -> str:
    """Why a round did not count, in the active language."""
    texts = {
        qualifying.NO_RESULT: _("no side won and no side lost"),
        qualifying.SAME_MAILBOX: _("two of its seats were played from one mailbox"),
        qualifying.UNCONFIRMED: _(
            "a seat was not played by a player who took it from their own address "
            "(seated at an open table, or moving through their own link or by email)"),
    }
    return texts.get(why, "")


def rounds_counted(game_id: int) -> list[RoundCounted]:
    """The rounds of a rated game claimed so far, oldest first, with whether each counted
    (one query)."""
    found = []
    for number, result in (RatedRound.objects.filter(game_id=game_id).order_by("round")
                           .values_list("round", "result")):
        why = qualifying.why_not_counted(result)
        found.append(RoundCounted(round=number, counted=not why, why=why))
    return found
