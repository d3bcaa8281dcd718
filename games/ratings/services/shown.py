"""The ratings as players see them: on their home (and its JSON twin), and, for the players
who chose a public name and to list their ratings, beside that name at open tables and on
/ratings/ (a player who did not choose to list them has no number anywhere public); and,
on a rated game's pages, which of its rounds counted and what each did to the ratings
("+31, now 1602": the reader's own, and those of the table's players who list theirs).

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
from games.ratings.core.model import Skill, settled_until
from games.ratings.core.rating_rows import PlayerRating, RatedRound, RatingChange
from games.ratings.services import qualifying
from games.seats.core.seat import Seat

RULESETS = ("base", "saboteur2")
LISTED = 100  # players on /ratings/ per ruleset


@dataclass(frozen=True)
class Shown:
    rating: int
    rounds: int
    provisional: bool

    def as_json(self) -> dict[str, Any]:
        return {"rating": self.rating, "rounds": self.rounds, "provisional": self.provisional}


def shown_rating(row: PlayerRating, now: datetime | None = None) -> Shown:
    """The rating as players see it (provisional or not as of `now`, by default now)."""
    now = now or timezone.now()
    return Shown(rating=Skill(row.mu, row.sigma).shown, rounds=row.rounds,
                 provisional=row.settled_until is None or row.settled_until < now)


def ratings_of(address: str) -> dict[str, Shown]:
    """The address's rating in each ruleset it has played rated rounds of (for its own
    home only)."""
    digest = mailbox_key_hash(address)
    if not digest:
        return {}
    now = timezone.now()
    return {row.ruleset: shown_rating(row, now) for row in
            PlayerRating.objects.filter(mailbox=digest).order_by("ruleset")}


def listed_ratings_by_key(keys: Iterable[str], ruleset: str) -> dict[str, Shown]:
    """The ratings in one ruleset of those of several people (by mailbox key hash) who
    chose to list them: one query. Nobody else's number is ever shown to others."""
    listing = PublicName.objects.filter(ratings_listed=True, mailbox__in=set(keys))
    now = timezone.now()
    return {row.mailbox: shown_rating(row, now) for row in PlayerRating.objects.filter(
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
    return [Listed(name=names[row.mailbox], shown=shown_rating(row, now)) for row in rows
            if row.mailbox in names]


@dataclass(frozen=True)
class RatingMoved:
    """What a counted round did to one player's rating, as its end shows it: "+31, now
    1602" (and "provisional" while the rating is)."""

    seat: int
    name: str  # the seat's player's name at the table
    change: int
    rating: int
    provisional: bool
    mine: bool  # the reader's own

    @property
    def text(self) -> str:
        words = {"change": f"{self.change:+d}", "rating": self.rating}
        if self.provisional:
            return _("%(change)s, now %(rating)s, provisional") % words
        return _("%(change)s, now %(rating)s") % words

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "change": self.change, "rating": self.rating,
                "provisional": self.provisional}


def moved(row: RatingChange) -> tuple[int, int, bool]:
    """(change, rating after, provisional after) of one change as shown."""
    after = Skill(row.mu_after, row.sigma_after)
    return (after.shown - Skill(row.mu_before).shown, after.shown,
            settled_until(after, row.rated_at) is None)


def ratings_moved(game_id: int, reader: str, rounds: Iterable[int] | None = None
                  ) -> dict[int, list[RatingMoved]]:
    """Round -> what it did to the ratings of the game's players that `reader` (a mailbox
    key hash, "" for nobody) may see: their own, and those of the seats' players today who
    list their ratings (nobody else's number is shown). Three queries."""
    changes = RatingChange.objects.filter(rated_round__game_id=game_id).select_related(
        "rated_round").order_by("rated_round__round", "seat")
    if rounds is not None:
        changes = changes.filter(rated_round__round__in=list(rounds))
    found = list(changes)
    seats = {seat.number: (seat.mailbox_key, seat.name_shown) for seat in Seat.objects.filter(
        game_id=game_id).select_related("game").only(
        "number", "mailbox_key", "player_name", "kind", "game__aliases", "game__status")}
    listing = set(PublicName.objects.filter(
        ratings_listed=True, mailbox__in={row.mailbox for row in found}).values_list(
        "mailbox", flat=True))
    shown: dict[int, list[RatingMoved]] = {}
    for row in found:
        mine = bool(reader) and row.mailbox == reader
        holder, name = seats.get(row.seat, ("", ""))
        if not mine and not (row.mailbox in listing and row.mailbox == holder):
            continue
        change, rating, provisional = moved(row)
        shown.setdefault(row.rated_round.round, []).append(RatingMoved(
            seat=row.seat, name=name, change=change, rating=rating,
            provisional=provisional, mine=mine))
    return shown


@dataclass(frozen=True)
class RoundCounted:
    """A round of a rated game once its roles were revealed: whether it counted for the
    ratings, and if not why (games.ratings.services.qualifying's reason, and in words);
    what it did to the ratings the reader may see."""

    round: int
    counted: bool
    why: str
    moved: tuple[RatingMoved, ...] = ()

    @property
    def reason(self) -> str:
        return reason_text(self.why)

    def as_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"round": self.round, "counted": self.counted}
        if not self.counted:
            answer.update(why=self.why, reason=self.reason)
        else:
            answer["ratings"] = [item.as_json() for item in self.moved]
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


def rounds_counted(game_id: int, reader: Seat | None = None) -> list[RoundCounted]:
    """The rounds of a rated game claimed so far, oldest first, with whether each counted
    and what it did to the ratings `reader` (a seat's player; None: nobody's own) may see
    (one query, and three when a round counted)."""
    claimed = [(number, qualifying.why_not_counted(result)) for number, result in
               RatedRound.objects.filter(game_id=game_id).order_by("round")
               .values_list("round", "result")]
    shown = (ratings_moved(game_id, reader.mailbox_key if reader is not None else "")
             if any(not why for _number, why in claimed) else {})
    return [RoundCounted(round=number, counted=not why, why=why,
                         moved=tuple(shown.get(number, ()))) for number, why in claimed]
