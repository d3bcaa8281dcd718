"""The strong level's learned evidence (games/bots/strong/evidence.py): the committed
model loads and weighs moves as diggers and saboteurs play them, the strong move is the
same for the same seed, and the corpus and the training are reproducible from their
seeds (bench/bot_corpus.py, bench/bot_model.py)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from games.bots import choose_move
from games.bots.strong.digging import actor_gold, deltas, fixed_cells, toward
from games.bots.strong.evidence import MODEL, factors, features, model
from games.engine import apply, legal_moves, new_game, view

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("bot_corpus"), importlib.import_module("bot_model")


def test_the_model_file_loads_for_both_rulesets() -> None:
    assert MODEL.exists()
    learned = model()
    for ruleset, roles in (("base", ["gold-digger", "saboteur"]),
                           ("saboteur2", ["blue-digger", "saboteur", "geologist"])):
        assert set(roles) <= set(learned[ruleset]["roles"])
        found = factors(ruleset, roles, "place_path_way:1", (1, 1, 1), [])
        assert found is not None and len(found) == len(roles)
        assert all(len(row) == 3 and all(f > 0 for f in row) for row in found)
        assert learned[ruleset]["corpus"]["first_seed"] is not None


def test_digging_toward_the_gold_it_mapped_looks_like_a_digger() -> None:
    roles = ["gold-digger", "saboteur"]
    toward_gold = factors("base", roles, "place_path_way:1", (2, 0, 0), [0])
    away = factors("base", roles, "place_path_way:1", (-2, 0, 0), [0])
    assert toward_gold is not None and away is not None
    # The gold under goal 0, which the mover mapped: nearer it is a digger's move.
    assert toward_gold[0][0] / toward_gold[1][0] > away[0][0] / away[1][0]


def test_a_placement_is_read_against_what_the_mover_could_believe() -> None:
    state = new_game(4, 5)
    turn = 0
    while turn < 12:
        state = apply(state, choose_move(view(state, state.actor), legal_moves(state), turn))
        turn += 1
    seen = view(state, 0)
    log = [e for e in (seen["log"] or []) if e.get("type") != "round_start"]
    moved = deltas(log, fixed_cells(seen), "base")
    placed = [m for e, m in zip(log, moved, strict=True) if e["type"] == "place"]
    assert placed and all(m is not None and len(m) == 3 for m in placed)
    assert actor_gold([1], 1) == [0.0, 1.0, 0.0]
    assert actor_gold([1], 2) == [0.5, 0.0, 0.5]
    assert toward((1, -1, 0), [0.5, 0.0, 0.5]) == pytest.approx(0.5)
    assert features("map:1", None, [0], 0) == {"k:map:1": 1.0, "remap_after_gold": 1.0}


def test_the_same_seed_gives_the_same_strong_move_with_the_model() -> None:
    for ruleset, seats in (("base", 6), ("saboteur2", 8)):
        state = new_game(seats, 17, ruleset)
        for turn in range(25):
            state = apply(state, choose_move(view(state, state.actor), legal_moves(state),
                                             turn))
        seen, moves = view(state, state.actor), legal_moves(state)
        first = choose_move(seen, moves, 99, level="strong")
        assert choose_move(seen, moves, 99, level="strong") is first


def test_the_corpus_and_the_training_are_reproducible_from_their_seeds(
        bench: tuple[Any, Any], tmp_path: Path) -> None:
    corpus, trainer = bench
    records = corpus.game_records("base", 50_001, rounds=1)
    assert records == corpus.game_records("base", 50_001, rounds=1)
    assert {r["role"] for r in records} <= {"gold-digger", "saboteur"}
    first = trainer.train(records, iterations=15)
    assert first == trainer.train(records, iterations=15)
    path = tmp_path / "corpus.jsonl"
    assert corpus.write(path, 1, 50_001, ("base",), rounds=1) == 1
    assert corpus.write(path, 1, 50_001, ("base",), rounds=1) == 0  # resumed: nothing left
    assert corpus.read(path) == records
