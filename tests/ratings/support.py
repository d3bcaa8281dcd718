"""Rated games for the ratings tests: dealt so that their first round rates (it has a
saboteur), played through the one move service by whoever holds each seat."""

from __future__ import annotations

import random
from collections.abc import Collection
from datetime import datetime

from django.utils import timezone

from games import engine
from games.game.core.game import Game
from games.people.core.mailboxes import mailbox_key_hash
from games.ratings.core.model import SHOWN_BASE, SHOWN_PER_MU, Skill, settled_until
from games.ratings.core.rating_rows import PlayerRating, RatedRound, RatingChange
from tests.players.play import round_ends
from tests.support import GameWithLinks, choose, make_game, move_for


def seed_with_a_saboteur(players: int, start: int = 1) -> int:
    """The first seed from `start` whose first round deals a saboteur to a table of
    `players` (a base round without one rates nothing)."""
    return next(seed for seed in range(start, start + 100)
                if "saboteur" in engine.new_game(players, seed, "base").roles)


def rated_game(seed: int = 1, players: int = 4) -> GameWithLinks:
    """A rated game of p0@example.com... whose first round has a saboteur."""
    return make_game(players=players, seed=seed_with_a_saboteur(players, seed), rated=True)


def play_on(game: Game, *, rounds: int, seed: int = 3, moves: int | None = None,
            absent: Collection[int] = ()) -> Game:
    """Moves until `rounds` rounds have ended (or `moves` moves were made): each seat's
    holder's own, but for the `absent` seats, whose turns the server passes at their
    deadlines."""
    rng = random.Random(seed)
    made = 0
    while len(round_ends(game)) < rounds and (moves is None or made < moves):
        state = game.state()
        if state.actor in absent:
            game = move_for(game.pk, game.version, {}, actor_kind="system")
        else:
            game = move_for(game.pk, game.version, choose(engine.legal_moves(state), rng))
        made += 1
    return Game.objects.get(pk=game.pk)


def rating_row(address: str, mu: float, sigma: float, rounds: int,
               last_round_at: datetime | None = None) -> PlayerRating:
    """A rating as the rated rounds leave it (its settled time as the rounds set it)."""
    at = last_round_at or timezone.now()
    return PlayerRating.objects.create(
        mailbox=mailbox_key_hash(address), ruleset="base", mu=mu, sigma=sigma, rounds=rounds,
        last_round_at=at, settled_until=settled_until(Skill(mu, sigma), at))


def mu_of(shown: int) -> float:
    """The mu a rating is shown as (games.ratings.core.model.Skill.shown)."""
    return Skill().mu + (shown - SHOWN_BASE) / SHOWN_PER_MU


def rated_round(game: Game, number: int, changes: dict[str, tuple[int, int, int]],
                sigma: float = 3.0) -> RatedRound:
    """The game's round `number` claimed as counted, with what it did to each address's
    rating: {address: (seat, shown before, shown after)}, as the ratings' sweep writes it
    (no round played)."""
    claim = RatedRound.objects.create(game=game, round=number, result={
        "sides": [], "counted": True, "why": ""})
    RatingChange.objects.bulk_create([
        RatingChange(rated_round=claim, mailbox=mailbox_key_hash(address),
                     ruleset=game.ruleset, seat=seat, mu_before=mu_of(before),
                     mu_after=mu_of(after), sigma_after=sigma, rated_at=claim.rated_at)
        for address, (seat, before, after) in changes.items()])
    return claim
