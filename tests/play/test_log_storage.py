"""The game log lives in the Move rows, not in the snapshot: a move writes a
few KB whatever its number, the whole state is put together exactly, and games stored
the old way are split by the migration without losing an event."""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest
from django.apps import apps

from games import engine
from games.game.core.game import Game, Move
from tests.support import make_game, move_for

pytestmark = pytest.mark.django_db

split_logs = importlib.import_module("games.migrations.0013_log_in_move_rows").split_logs


def play(game: Game, moves: int, seed: int = 3) -> Game:
    rng = random.Random(seed)
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = game.state()
        move = rng.choice(engine.legal_moves(state))
        move_for(game.pk, game.version, move, actor_kind=Move.Actor.SEAT,
                            seat_number=state.actor)
    game.refresh_from_db()
    return game


def size(value: Any) -> int:
    return len(json.dumps(value))


def test_the_snapshot_holds_no_log_and_stays_small_while_the_log_grows() -> None:
    game = make_game(players=4, seed=11).game
    early = size(game.snapshot)
    game = play(game, 120)
    assert game.snapshot["log"] == [] and game.version > 60
    log = game.full_log()
    assert game.log_length == len(log) > 100
    # The row rewritten by every move does not grow with the log (deck and hands shrink,
    # the board grows by a card a move).
    assert size(game.snapshot) < early + 40 * game.version
    assert size(game.snapshot) < size(log) / 2
    # Each move's own row holds only what it added.
    last = game.moves.order_by("-number").first()
    assert last is not None and size(last.events) < 2000


def test_the_whole_state_is_exactly_the_replay() -> None:
    game = play(make_game(players=5, seed=12).game, 90, seed=5)
    moves = list(game.moves.order_by("number").values_list("move", flat=True))
    replayed = engine.replay(5, game.seed, moves, game.ruleset, game.options)
    assert game.state().to_json() == replayed.to_json()
    assert game.state().to_json() == replayed.to_json()


def test_the_migration_splits_an_old_style_log_into_the_move_rows() -> None:
    game = play(make_game(players=4, seed=13).game, 40, seed=7)
    whole = game.state().to_json()
    opening = list(game.opening_log)
    events = dict(game.moves.values_list("number", "events"))
    # Stored the old way: the whole log in the snapshot, nothing in the rows.
    Game.objects.filter(pk=game.pk).update(snapshot=whole, opening_log=[], log_length=0)
    Move.objects.filter(game=game).update(events=[])
    split_logs(apps, None)
    game.refresh_from_db()
    assert game.snapshot["log"] == [] and game.opening_log == opening
    assert dict(game.moves.values_list("number", "events")) == events
    assert game.log_length == len(whole["log"]) and game.state().to_json() == whole


def test_a_game_whose_moves_do_not_replay_keeps_its_whole_log() -> None:
    game = play(make_game(players=3, seed=14).game, 10, seed=2)
    whole = game.state().to_json()
    Game.objects.filter(pk=game.pk).update(snapshot=whole, opening_log=[], seed=game.seed + 1)
    Move.objects.filter(game=game).update(events=[])
    split_logs(apps, None)
    game.refresh_from_db()
    assert game.opening_log == whole["log"] and game.full_log() == whole["log"]
