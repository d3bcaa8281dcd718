"""Shared helpers of the tournament tests: an event's settings, and a game played to its
end by the engine alone (what the move service would store), fast."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import engine
from games.game.core.game import Game
from games.people.core.home_links import home_link
from games.tournaments.core.event_rows import Tournament
from games.tournaments.core.event_settings import read_settings
from games.tournaments.services.entries import create_event
from tests.support import choose, token_of


def event(**chosen: Any) -> Tournament:
    data = {"name": "Autumn cup", "ruleset": "base", "players": 3, "rounds": 3,
            "hours_per_move": 24, "language": "en", "cap": 9,
            "signup_closes": timezone.now() + timedelta(days=2), "round_days": 14,
            **chosen}
    return create_event(read_settings(data), seed=chosen.get("seed", 7))


def hosted(host: str, **chosen: Any) -> Tournament:
    """An event as `event` makes it, hosted by `host`'s home."""
    cup = event(**chosen)
    cup.host_email = host
    cup.save(update_fields=["host_email", "host_mailbox"])
    return cup


def home(address: str) -> str:
    """The token of `address`'s home link."""
    return token_of(home_link(address))


def finish(game: Game, seed: int = 0) -> Game:
    """Play `game` to its end with quick legal moves (engine only) and store the end as
    the move service would: the finished snapshot, the status."""
    rng = random.Random(seed)
    state = game.state_without_log()
    while not state.finished:
        state = engine.apply(state, choose(engine.legal_moves(state), rng))
    game.snapshot = state.to_json(include_log=False)
    game.status, game.actor = Game.Status.FINISHED, None
    game.save(update_fields=["snapshot", "status", "actor"])
    return game


def to_the_last_move(game: Game, seed: int = 0) -> dict[str, Any]:
    """Play `game` with quick legal moves (engine only) up to its last one, store it there
    as the move service would (the snapshot, the version, the seat to act), and give that
    last move:
    made through the move service, it ends the game."""
    rng = random.Random(seed)
    state = game.state_without_log()
    while True:
        move = choose(engine.legal_moves(state), rng)
        after = engine.apply(state, move)
        if after.finished:
            break
        state = after
        game.version += 1
    game.snapshot = state.to_json(include_log=False)
    game.actor = state.actor
    game.save(update_fields=["snapshot", "actor", "version"])
    return dict(move)
