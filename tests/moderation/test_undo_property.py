"""Undo, as a property: on seeded whole games, undoing to N gives exactly the snapshot the
game had after move N, including across goal reveals, round ends, gold picks and payouts.

Each game is played to the end by a bot through the services, recording the snapshot
after every move; then it is undone step by step to earlier and earlier moves (chosen
around every round end, gold pick, payout and reveal, plus random ones), checking the
snapshot, the version, the Move rows and the replay each time, and that `force` was
needed exactly when a round end, gold pick or payout was undone.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.game.core.game import Game
from games.moderation import services as moderation
from games.moderation.services.undo import ROUND_EVENTS
from tests.moderation_support import digger, make_moderator, play
from tests.support import assert_replay_matches, make_game, move_for

pytestmark = pytest.mark.django_db

# (players, seed, ruleset): seeds where the digger bot finds gold in some rounds and
# runs out of cards in others.
GAMES = [
    (3, 3, "base"),
    (5, 7, "base"),
    (7, 5, "base"),
    (4, 1, "saboteur2"),
]
SEEN = {"base": {"round_end", "reveal", "gold_pick", "payout", "game_end"},
        "saboteur2": {"round_end", "reveal", "payout", "game_end"}}
MARKED = ROUND_EVENTS | {"reveal"}


def events_of(snapshots: list[dict[str, Any]], version: int) -> list[str]:
    """The types of the log events move `version` caused."""
    before = len(snapshots[version - 1]["log"])
    return [str(e["type"]) for e in snapshots[version]["log"][before:]]


def targets(snapshots: list[dict[str, Any]], rng: random.Random) -> list[int]:
    """Versions to undo to, latest first: around every marked event, and some at random."""
    last = len(snapshots) - 1
    chosen = {last - 1, 0}
    for version in range(1, last + 1):
        if MARKED & set(events_of(snapshots, version)):
            chosen |= {version - 1, version}
    chosen |= {rng.randrange(0, last) for _ in range(4)}
    return sorted((v for v in chosen if 0 <= v < last), reverse=True)


def crosses(snapshots: list[dict[str, Any]], to: int, current: int) -> bool:
    return any(ROUND_EVENTS & set(events_of(snapshots, v)) for v in range(to + 1, current + 1))


@pytest.mark.parametrize(("players", "seed", "ruleset"), GAMES)
def test_undo_to_n_gives_the_snapshot_after_move_n(players: int, seed: int,
                                                   ruleset: str) -> None:
    mod: User = make_moderator()
    g = make_game(players=players, seed=seed, ruleset=ruleset)
    snapshots = play(g, random.Random(seed), bot=digger)
    game = g.refresh()
    assert game.status == Game.Status.FINISHED
    kinds = {t for v in range(1, len(snapshots)) for t in events_of(snapshots, v)}
    assert SEEN[ruleset] <= kinds
    current = game.version
    for to in targets(snapshots, random.Random(seed)):
        plan = moderation.plan_undo(game, to)
        assert plan.crosses_round_end == crosses(snapshots, to, current)
        if plan.crosses_round_end:
            with pytest.raises(moderation.ModerationError):
                moderation.undo_to(game.pk, to, expected_version=current, moderator=mod,
                                   reason="property")
        moderation.undo_to(game.pk, to, expected_version=current, moderator=mod,
                           reason="property", force=plan.crosses_round_end)
        game = g.refresh()
        assert game.version == to and game.state().to_json() == snapshots[to], f"undo to {to}"
        assert game.actor == game.state().actor
        assert game.status == Game.Status.ACTIVE
        assert list(game.moves.values_list("number", flat=True)) == list(range(1, to + 1))
        current = to
    assert_replay_matches(game)


def test_after_an_undo_the_same_moves_lead_to_the_same_game(game_factory: Any) -> None:
    """Redo: replaying the dropped moves through the services gives the old snapshots."""
    mod = make_moderator()
    g = game_factory(players=4, seed=21)
    snapshots = play(g, random.Random(21), until=lambda game: any(
        e["type"] == "round_end" for e in game.full_log()))
    current = g.game.version
    dropped = [m.move for m in g.game.moves.filter(number__gt=current - 6).order_by("number")]
    moderation.undo_to(g.game.pk, current - 6, expected_version=current, moderator=mod,
                       reason="redo check", force=True)
    from games.game.core.game import Move

    for offset, move in enumerate(dropped):
        game = g.refresh()
        move_for(game.pk, game.version, move, actor_kind=Move.Actor.SEAT,
                            seat_number=move.get("seat"))
        assert g.refresh().state().to_json() == snapshots[current - 5 + offset]
