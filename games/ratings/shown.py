"""The ratings as players see them: on their home (and its JSON twin), beside the names at
open tables, and on /ratings/ for the players who chose a public name and opted in.

A rating is shown as an Elo-like number (games.ratings.model.Skill.shown), with the rated
rounds it counts and whether it is still provisional (fewer than 10 rated rounds). Its
certainty decays with months without a rated round; the number shown does not (mu
stays), the uncertainty behind it does. Reliability (deadlines missed) is shown beside a
rating by the pages, never mixed into it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Value, When

from games.models import PlayerRating, PublicName
from games.models.mailboxes import mailbox_key_hash
from games.ratings.model import PROVISIONAL_ROUNDS, Skill, provisional

RULESETS = ("base", "saboteur2")
LISTED = 100  # players on /ratings/ per ruleset


@dataclass(frozen=True)
class Shown:
    rating: int
    rounds: int
    provisional: bool

    def as_json(self) -> dict[str, Any]:
        return {"rating": self.rating, "rounds": self.rounds, "provisional": self.provisional}


def _shown(row: PlayerRating) -> Shown:
    return Shown(rating=Skill(row.mu, row.sigma).shown, rounds=row.rounds,
                 provisional=provisional(row.rounds))


def ratings_of(address: str) -> dict[str, Shown]:
    """The address's rating in each ruleset it has played rated rounds of."""
    digest = mailbox_key_hash(address)
    if not digest:
        return {}
    return {row.ruleset: _shown(row) for row in
            PlayerRating.objects.filter(mailbox=digest).order_by("ruleset")}


def ratings_by_key(keys: Iterable[str], ruleset: str) -> dict[str, Shown]:
    """The ratings of several people (by mailbox key hash) in one ruleset: one query."""
    return {row.mailbox: _shown(row) for row in
            PlayerRating.objects.filter(mailbox__in=set(keys), ruleset=ruleset)}


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
    opted_in = PublicName.objects.filter(ratings_listed=True).values("mailbox")
    rows = list(PlayerRating.objects.filter(ruleset=ruleset, mailbox__in=opted_in)
                .annotate(settled=Case(When(rounds__gte=PROVISIONAL_ROUNDS, then=Value(1)),
                                       default=Value(0)))
                .order_by("-settled", "-mu", "mailbox")[:LISTED])
    names = dict(PublicName.objects.filter(mailbox__in=[row.mailbox for row in rows])
                 .values_list("mailbox", "name"))
    return [Listed(name=names[row.mailbox], shown=_shown(row)) for row in rows
            if row.mailbox in names]
