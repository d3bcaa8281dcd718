"""Rating the rounds of rated games as they end (games.ratings.core.model has the model).

The ratings' outbox (games.ratings.services.rating_outbox) calls `after_moves(game_id)` for
a rated game once a round has ended: a game that is not rated costs one indexed query; a
rated one, once a round's roles are revealed (its `round_end` event is in the log: every
seat sees them then, never before), rates that round once, shared among who held each seat
by their turns (games.ratings.services.turn_shares), when it counts
(games.ratings.services.qualifying: distinct people who each took their seat from their own
address); a round that does not count moves no rating. The RatedRound row is the claim, with
whether the round counted and why not, written in the same transaction as the ratings it
moved, so a round is never rated twice and a failed update rates nothing; with them, each
rated player's RatingChange (what the round did to their rating: shown at the round's end
and plotted on their public page).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.game.core.game import Game, Move
from games.ratings.core.model import (
    BOT_SKILLS,
    Hand,
    Skill,
    Team,
    decayed,
    prior_of,
    rate_round,
    settled_until,
    side_key,
)
from games.ratings.core.rating_rows import PlayerRating, RatedRound, RatingChange, SideRating
from games.ratings.core.sides import SideSeats, round_sides
from games.ratings.services import qualifying, turn_shares

log = logging.getLogger("games")


def rounds_ended(snapshot: Mapping[str, Any]) -> int:
    """How many rounds have ended (their roles revealed), from the stored state."""
    current = int(snapshot.get("round") or 1)
    return current if snapshot.get("phase") != "play" else current - 1


def after_moves(game_id: int) -> int:
    """Rate the rated game's rounds that have ended since; how many rounds were rated
    (0 for a game that is not rated)."""
    game = Game.objects.filter(pk=game_id, rated=True).first()
    if game is None:
        return 0
    done = set(RatedRound.objects.filter(game=game).values_list("round", flat=True))
    if len(done) >= rounds_ended(game.snapshot):
        return 0
    rated, previous_end = 0, 0
    for number, round_end in _round_ends(game):
        if round_end["round"] not in done and _rate(game, round_end, previous_end + 1, number):
            rated += 1
        previous_end = number
    return rated


def _round_ends(game: Game) -> Iterator[tuple[int, dict[str, Any]]]:
    """(the move that ended it, its round_end event) for every round ended so far."""
    for number, events in (Move.objects.filter(game=game).order_by("number")
                           .values_list("number", "events")):
        for event in events:
            if event.get("type") == "round_end":
                yield number, event


@dataclass(frozen=True)
class _Seated:
    """A team's seats as the model takes them, with the rated players' current rows."""

    teams: list[Team]
    rows: dict[str, PlayerRating]


def _rate(game: Game, round_end: dict[str, Any], first: int, last: int) -> bool:
    sides = round_sides(game.ruleset, round_end)
    now = timezone.now()
    try:
        with transaction.atomic():
            shares = turn_shares.turn_shares(game, first, last) if sides else {}
            verdict = (qualifying.judge(game, shares, last) if sides
                       else qualifying.Verdict(qualifying.NO_RESULT))
            claim = RatedRound.objects.create(game=game, round=round_end["round"],
                                              rated_at=now, result=_result(sides, verdict.why))
            if verdict.why:
                log.info("game %s: round %s does not count (%s)", game.pk,
                         round_end["round"], verdict.why)
                return False  # claimed as seen, and moves no rating
            seated = _seat_teams(game, sides, shares, now, verdict.forgotten)
            side_rows = _side_rows(game.ruleset, seated.teams)
            outcome = rate_round(seated.teams, {key: Skill(row.mu, row.sigma)
                                                for key, row in side_rows.items()})
            _keep_changes(claim, outcome.players, seated.rows, _seat_of(shares))
            _store(game.ruleset, outcome.players, seated.rows, outcome.sides, side_rows, now)
    except IntegrityError:
        return False  # rated already, by another worker
    log.info("game %s: round %s rated", game.pk, round_end["round"])
    return True


def _result(sides: list[SideSeats], why: str) -> dict[str, Any]:
    return {"sides": [{"side": s.side, "seats": list(s.seats), "won": s.won} for s in sides],
            "counted": not why, "why": why}


def _seat_teams(game: Game, sides: list[SideSeats],
                shares: dict[int, dict[turn_shares.Part, float]], now: datetime,
                forgotten: frozenset[str]) -> _Seated:
    keys = {who for seat in shares.values() for who in seat if who}
    rows = {row.mailbox: row for row in PlayerRating.objects.select_for_update().filter(
        mailbox__in=keys, ruleset=game.ruleset)}
    bot = BOT_SKILLS.get(game.bot_level, BOT_SKILLS["normal"])
    teams = []
    for side in sides:
        seats = []
        for number in side.seats:
            hands = []
            for who, share in shares.get(number, {turn_shares.BOT: 1.0}).items():
                if who is turn_shares.BOT:
                    hands.append(Hand(None, bot, share))
                elif not who or who in forgotten:
                    # No address left, or nothing new to keep: rated as a newcomer, stored
                    # nowhere.
                    hands.append(Hand(None, Skill(), share))
                else:
                    row = rows.get(who)
                    skill = (decayed(Skill(row.mu, row.sigma), row.last_round_at, now)
                             if row else Skill())
                    hands.append(Hand(who, skill, share))
            seats.append(tuple(hands))
        teams.append(Team(side=side_key(game.ruleset, side.side, len(side.seats)),
                          seats=tuple(seats), won=side.won))
    return _Seated(teams=teams, rows=rows)


def _side_rows(ruleset: str, teams: list[Team]) -> dict[str, SideRating]:
    found = {}
    for team in teams:
        _ruleset, side, size = team.side.split(":")
        prior = prior_of(team.side)
        row, _made = SideRating.objects.select_for_update().get_or_create(
            ruleset=ruleset, side=side, size=int(size),
            defaults={"mu": prior.mu, "sigma": prior.sigma})
        found[team.side] = row
    return found


def _seat_of(shares: dict[int, dict[turn_shares.Part, float]]) -> dict[str, int]:
    """Each person's seat in the round (a counted round has each person in one seat)."""
    return {who: seat for seat, hands in shares.items() for who in hands if who}


def _keep_changes(claim: RatedRound, players: dict[str, Skill],
                  rows: dict[str, PlayerRating], seats: dict[str, int]) -> None:
    """What the round did to each rated player's rating, before their rows change (a
    newcomer's rating before it is the model's start)."""
    RatingChange.objects.bulk_create([
        RatingChange(rated_round=claim, mailbox=key, ruleset=claim.game.ruleset,
                     seat=seats.get(key, 0),
                     mu_before=rows[key].mu if key in rows else Skill().mu,
                     mu_after=skill.mu, sigma_after=skill.sigma, rated_at=claim.rated_at)
        for key, skill in players.items()])


def _store(ruleset: str, players: dict[str, Skill], rows: dict[str, PlayerRating],
           sides: dict[str, Skill], side_rows: dict[str, SideRating], now: datetime) -> None:
    for key, skill in players.items():
        row = rows.get(key) or PlayerRating(mailbox=key, ruleset=ruleset)
        row.mu, row.sigma, row.last_round_at = skill.mu, skill.sigma, now
        row.settled_until = settled_until(skill, now)
        row.rounds += 1
        row.save()
    for key, skill in sides.items():
        side = side_rows[key]
        side.mu, side.sigma, side.rounds = skill.mu, skill.sigma, side.rounds + 1
        side.save(update_fields=["mu", "sigma", "rounds"])
