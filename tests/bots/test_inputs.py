"""A bot's move depends on its arguments only: the same view, moves and seed give the
same move, whatever the other seats hold, and the view is left as it was."""

from __future__ import annotations

import ast
import copy
import json
import random
from pathlib import Path

import pytest

from games.bots import choose_move
from games.engine import State, apply, legal_moves, new_game, view

from .play import play

BOTS = Path(__file__).resolve().parents[2] / "games" / "bots"


def midgame(ruleset: str, seats: int, seed: int, steps: int) -> State:
    rng = random.Random(seed)
    state = new_game(seats, seed, ruleset)
    for _ in range(steps):
        state = apply(state, rng.choice(legal_moves(state)))
    return state


@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_same_inputs_same_move_and_the_view_is_not_changed(ruleset: str) -> None:
    for seed in range(30):
        state = midgame(ruleset, 5, seed, steps=seed % 20)
        seen, moves = view(state, state.actor), legal_moves(state)
        before = json.dumps([seen, moves], sort_keys=True)
        first = choose_move(seen, moves, seed)
        again = choose_move(copy.deepcopy(seen), copy.deepcopy(moves), seed)
        assert json.dumps([seen, moves], sort_keys=True) == before
        assert again == first


def test_whole_games_replay_the_same() -> None:
    one, _ = play(5, seed=7, ruleset="saboteur2")
    two, _ = play(5, seed=7, ruleset="saboteur2")
    assert one.to_json() == two.to_json()


def shuffled_secrets(state: State, seat: int, rng: random.Random) -> State:
    """The same position for `seat`, with everyone else's secrets changed: hands of the
    other seats dealt again from their cards and the deck, roles of the others shuffled
    among themselves, the deck reordered."""
    other = state.copy()
    others = [s for s in range(other.seats) if s != seat]
    pool = [c for s in others for c in other.hands[s]] + list(other.deck)
    rng.shuffle(pool)
    for s in others:
        size = len(other.hands[s])
        other.hands[s], pool = pool[:size], pool[size:]
    other.deck = pool
    roles = [other.roles[s] for s in others]
    rng.shuffle(roles)
    for s, role in zip(others, roles, strict=True):
        other.roles[s] = role
    return other


@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_other_seats_secrets_do_not_change_the_move(ruleset: str) -> None:
    rng = random.Random(3)
    changed = 0
    for seed in range(25):
        state = midgame(ruleset, 6, seed, steps=5 + seed % 15)
        if state.phase != "play":
            continue
        seat = state.actor
        assert seat is not None
        other = shuffled_secrets(state, seat, rng)
        changed += other.hands != state.hands or other.roles != state.roles
        assert view(other, seat) == view(state, seat)
        moves = legal_moves(state)
        assert choose_move(view(other, seat), legal_moves(other), seed) == choose_move(
            view(state, seat), moves, seed)
    assert changed > 20  # the secrets really differed


def test_the_bots_import_no_game_state() -> None:
    """Only the printed card list comes from the engine: no state, no moderator view."""
    allowed = {"games.engine": {"rules_for"}, "games.engine.cards": {"CardSpec"},
               # the typed shapes of a view and a move: no state, no moderator view
               "games.engine.types": {"JSON", "CardView", "LogEvent", "Move", "SeatView"}}
    for path in BOTS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.startswith("games"):
                names = {a.name for a in node.names}
                assert names <= allowed.get(node.module, set()), (path.name, names)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("games") for a in node.names), path.name
