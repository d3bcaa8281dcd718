"""What a player's public page shows (/players/<name>/ and GET /api/players/<name>), found by
their public name (games.people.core.public_names), and only what they chose to show:

- their ratings, each with its rated rounds, whether it is provisional and its history
  (what each counted round did to it: games.ratings.core.rating_rows.RatingChange), only
  while they list their ratings (as on /ratings/: nobody else's number is shown anywhere
  public);
- their record (games played and finished, rounds won, and the reliability the server
  keeps: deadlines missed, seats taken over for others), only while they show it to
  their tables;
- their finished games that anyone may watch, where their seat bore their public name
  (the spectator page shows that name already): a link to the spectator page, never a
  seat's link.

Never an address, and nothing of a game still going on. A few queries, whatever the
number of games: the name, the ratings and one per ruleset's history, the record's three,
the games.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count
from django.urls import reverse

from games.game.core.game import Game
from games.kit.text import is_clean_line
from games.people.core.public_names import NameKey, PublicName
from games.ratings.core.rating_rows import PlayerRating, RatingChange
from games.ratings.services.player_record import PlayerRecord, record_and_shown_by_key
from games.ratings.services.shown import RULESETS, Shown, moved, shown_rating
from games.seats.core.seat import Seat

HISTORY = 200  # the latest rated rounds plotted per ruleset
GAMES = 50  # the latest finished public games listed
LONGEST = 30  # PublicName.name's max_length (games.tables.services.naming.MAX_LENGTH)


@dataclass(frozen=True)
class RatingStep:
    """One counted round in a rating's history: what it did, and the rating after it."""

    at: datetime
    change: int
    rating: int
    provisional: bool

    def as_json(self) -> dict[str, Any]:
        return {"rated_at": self.at.isoformat(), "change": self.change,
                "rating": self.rating, "provisional": self.provisional}


@dataclass(frozen=True)
class RulesetRating:
    ruleset: str
    shown: Shown
    history: tuple[RatingStep, ...]  # the latest HISTORY rated rounds, oldest first

    @property
    def first_round(self) -> int:
        """How many rated rounds the rating counted before its history shown begins."""
        return max(self.shown.rounds - len(self.history), 0)

    @property
    def start(self) -> int:
        """The rating before the first round of its history shown."""
        return self.history[0].rating - self.history[0].change if self.history else 0

    def as_json(self) -> dict[str, Any]:
        return {**self.shown.as_json(), "history": [step.as_json() for step in self.history]}


@dataclass(frozen=True)
class PublicGame:
    title: str
    ruleset: str
    players: int
    rated: bool
    ended: datetime
    public_id: str

    @property
    def watch(self) -> str:
        return reverse("games:watch", args=[self.public_id])

    def as_json(self) -> dict[str, Any]:
        return {"name": self.title, "ruleset": self.ruleset, "players": self.players,
                "rated": self.rated, "ended": self.ended.isoformat(), "watch": self.watch}


@dataclass(frozen=True)
class PlayerPage:
    name: str
    ratings: tuple[RulesetRating, ...] | None  # None: not listed
    record: PlayerRecord | None  # None: not shown
    games: tuple[PublicGame, ...]

    @property
    def url(self) -> str:
        return page_url(self.name)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "page": self.url,
            "ratings": None if self.ratings is None else {
                item.ruleset: item.as_json() for item in self.ratings},
            "record": None if self.record is None else {
                "games_played": self.record.games_played,
                "games_finished": self.record.games_finished,
                "rounds_won": self.record.rounds_won_total,
                "deadlines_missed": self.record.deadlines_missed,
                "seats_taken_over": self.record.seats_taken_over},
            "games": [game.as_json() for game in self.games],
        }


def page_url(name: str) -> str:
    return reverse("games:player", args=[name])


def named(name: str) -> PublicName | None:
    """The public name `name` stands for: written so, else with other capitals (a name's
    keys hold its case-folded reading: games.tables.services.naming.name_keys; names are
    unique by them); None for none, and for what no name can be."""
    if not 0 < len(name) <= LONGEST or not is_clean_line(name):
        return None  # never a query with a NUL or a control character
    exact = PublicName.objects.filter(name=name).first()
    if exact is not None:
        return exact
    folded = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    key = NameKey.objects.filter(key=folded).select_related("owner").first()
    return key.owner if key is not None else None


def player_page(owner: PublicName) -> PlayerPage:
    """Everything the player's page shows (see the module)."""
    record, record_shown = record_and_shown_by_key(owner.mailbox)
    return PlayerPage(name=owner.name,
                      ratings=_ratings(owner.mailbox) if owner.ratings_listed else None,
                      record=record if record_shown else None,
                      games=_games(owner))


def _ratings(mailbox: str) -> tuple[RulesetRating, ...]:
    rows = {row.ruleset: row for row in PlayerRating.objects.filter(mailbox=mailbox)}
    return tuple(RulesetRating(ruleset=ruleset, shown=shown_rating(rows[ruleset]),
                               history=_history(mailbox, ruleset))
                 for ruleset in RULESETS if ruleset in rows)


def _history(mailbox: str, ruleset: str) -> tuple[RatingStep, ...]:
    latest = list(RatingChange.objects.filter(mailbox=mailbox, ruleset=ruleset)
                  .order_by("-rated_at", "-pk")[:HISTORY])
    steps = []
    for row in reversed(latest):
        change, rating, provisional = moved(row)
        steps.append(RatingStep(at=row.rated_at, change=change, rating=rating,
                                provisional=provisional))
    return tuple(steps)


def _games(owner: PublicName) -> tuple[PublicGame, ...]:
    seats = list(Seat.objects.filter(mailbox_key=owner.mailbox, player_name=owner.name,
                                     game__status=Game.Status.FINISHED,
                                     game__spectators_allowed=True)
                 .select_related("game").defer("game__snapshot", "game__opening_log")
                 .order_by("-game__updated_at", "-game_id")[:GAMES])
    players = dict(Seat.objects.filter(game_id__in=[seat.game_id for seat in seats])
                   .values("game_id").annotate(n=Count("id")).values_list("game_id", "n"))
    return tuple(PublicGame(title=seat.game.title, ruleset=seat.game.ruleset,
                            players=players.get(seat.game_id, 0), rated=seat.game.rated,
                            ended=seat.game.updated_at, public_id=seat.game.public_id)
                 for seat in seats)
