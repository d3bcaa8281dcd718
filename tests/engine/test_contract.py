"""The DESIGN.md engine API contract, as other code and outside checks use it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from games.engine import State, apply, legal_moves, moderator_view, new_game, replay, view

ROOT = Path(__file__).resolve().parents[2]


def test_engine_imports_nothing_from_django() -> None:
    code = ("import sys, games.engine as e, games.engine.verify; s = e.new_game(4, 1); "
            "e.view(s, 0); e.moderator_view(s); "
            "assert not [m for m in sys.modules if m.startswith('django')]")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                   env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})


def test_view_has_the_promised_keys() -> None:
    state = new_game(5, 2)
    data = view(state, 1)
    for key in ("board", "hand", "role", "players", "round", "deck_size", "actor", "phase",
                "finished", "log"):
        assert key in data
    assert {"seat", "hand_size", "in_front"} <= set(data["players"][0])
    start = data["board"][0]
    assert start == {"x": 0, "y": 0, "card": {
        "id": "start", "kind": "start", "name": "Start", "exits": ["N", "E", "S", "W"],
        "segments": [["N", "E", "S", "W"]], "dead_end": False, "goal": None,
        "rotated": False}}
    assert [c["card"]["goal"] for c in data["board"][1:4]] == ["hidden"] * 3
    card = data["hand"][0]
    assert card["kind"] in ("path", "action") and {"id", "name"} <= set(card)


def test_spectator_sees_no_hand_and_no_role() -> None:
    data = view(new_game(4, 3), None)
    assert data["hand"] == [] and data["role"] is None and data["seat"] is None


def test_moderator_view_has_everything() -> None:
    state = new_game(4, 3)
    data = moderator_view(state)
    assert [[c["id"] for c in hand] for hand in data["hands"]] == state.hands
    assert data["roles"] == state.roles and len(data["roles_aside"]) == 1
    assert [c["id"] for c in data["deck_top_first"]] == state.deck[::-1]
    assert [g["content"] for g in data["goals"]] == state.goal_kinds
    assert all(c["card"]["goal"] != "hidden" for c in data["board"])


def test_state_properties_and_replay() -> None:
    state = new_game(3, 4)
    moves = []
    for _ in range(20):
        move = legal_moves(state)[-1]
        moves.append(move)
        state = apply(state, move)
    assert replay(3, 4, moves).to_json() == state.to_json()
    assert State.from_json(state.to_json()).to_json() == state.to_json()
    assert state.actor in range(3) and not state.finished and state.scores == [0, 0, 0]
