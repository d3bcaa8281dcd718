"""The duplicate bench (bench/bots.py --duplicate) on a tiny run: the same seeds give
the same table, a rerun plays nothing already in the results file, and a line cut short
by a killed run is played again."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
DEALS = range(1)  # a 3-seat deal with a saboteur seated
SEARCH = importlib.import_module("games.bots.strong.search")
LOOKAHEAD = importlib.import_module("games.bots.strong.lookahead")
STRONG = importlib.import_module("games.bots.strong")


@pytest.fixture
def dup(monkeypatch: pytest.MonkeyPatch) -> Any:
    """bench/bots_dup.py, with a small search (the table's shape, not its strength)."""
    monkeypatch.syspath_prepend(str(BENCH))
    for search in (SEARCH, LOOKAHEAD):
        monkeypatch.setattr(search, "WORLDS", 1)
        monkeypatch.setattr(search, "STEPS", 8)
    module = importlib.import_module("bots_dup")
    monkeypatch.setitem(module.RANGES, "base", [(3, 5)])  # one band: a tiny run
    yield module
    sys.modules.pop("bots_dup", None)


def run(dup: Any, path: Path, seeds: range) -> str:
    """Play the base 3-5 games of `seeds` missing from `path` (the strong level's
    current algorithm); the table of the file."""
    done = {dup.key(line) for line in dup.of(STRONG.ALGORITHM, dup.read(path))}
    for job in dup.jobs(["base"], seeds, 1, done):
        dup.append(path, dup.play(job))
    return str(dup.table(["base"], dup.of(STRONG.ALGORITHM, dup.read(path))))


@pytest.mark.slow  # the strong bot's duplicate games
def test_the_same_seeds_give_the_same_table(dup: Any, tmp_path: Path) -> None:
    first = run(dup, tmp_path / "a.jsonl", DEALS)
    assert first == run(dup, tmp_path / "b.jsonl", DEALS)
    assert "| base | 3-5 | gold-diggers | 1 |" in first
    assert "| base | 3-5 | saboteurs | 1 |" in first


def test_a_rerun_continues_where_the_file_ends(dup: Any, tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    whole = run(dup, path, DEALS)
    lines = path.read_text().splitlines()
    assert len(lines) == 3  # all normal, strong diggers, strong saboteurs
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # killed mid-line
    assert run(dup, path, DEALS) == whole
    assert len(dup.read(path)) == 3
    before = path.read_text()
    assert run(dup, path, DEALS) == whole and path.read_text() == before


@pytest.mark.slow  # the strong bot's duplicate games
def test_the_joint_algorithm_gives_the_same_table_for_the_same_seeds(
        dup: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The joint look-ahead's strong games, kept beside the rollouts' in one file: the
    all-normal game is shared, each algorithm's table reads its own strong games."""
    path = tmp_path / "j.jsonl"
    monkeypatch.setattr(STRONG, "ALGORITHM", "rollout")
    rollout = run(dup, path, DEALS)
    monkeypatch.setattr(STRONG, "ALGORITHM", "joint")
    first = run(dup, path, DEALS)
    assert first == run(dup, tmp_path / "k.jsonl", DEALS)
    assert "| base | 3-5 | saboteurs | 1 |" in first
    lines = dup.read(path)
    assert len(lines) == 5  # one all-normal game, two strong games per algorithm
    assert {line["algorithm"] for line in lines} == {None, "rollout", "joint"}
    monkeypatch.setattr(STRONG, "ALGORITHM", "rollout")
    assert run(dup, path, DEALS) == rollout and len(dup.read(path)) == 5


def test_two_algorithms_compare_deal_by_deal(dup: Any) -> None:
    """The joint and the rollout strong games of the same deals, without the normal one."""
    def line(seed: int, algorithm: str | None, result: str,
             who: str = "saboteurs") -> dict[str, Any]:
        return {"ruleset": "base", "low": 3, "high": 5, "seed": seed, "rounds": 1,
                "who": who if algorithm else "normal", "algorithm": algorithm,
                "results": [result]}

    lines = [line(0, None, "gold-diggers"), line(0, "joint", "saboteurs"),
             line(0, "rollout", "gold-diggers"), line(1, "joint", "saboteurs"),
             line(1, "rollout", "saboteurs"), line(2, "joint", "saboteurs"),
             line(0, "rollout", "saboteurs", "gold-diggers"),
             line(0, "joint", "gold-diggers", "gold-diggers")]
    table = dup.versus(["base"], lines, "joint", "rollout")
    assert "| rollout wins | joint wins |" in table
    assert "| base | 3-5 | saboteurs | 2 | 50% | 100% | +50.0 |" in table
    assert "| base | 3-5 | gold-diggers | 1 | 0% | 100% | +100.0 |" in table
    assert "| base | all | gold-diggers | 1 | 0% | 100% | +100.0 |" in table


def test_maps_under_a_goal_the_side_mapped_are_counted(dup: Any) -> None:
    """Two gold-diggers map the middle goal, a saboteur maps it too: one repeat for the
    gold-diggers, none for the saboteurs; a new round starts afresh."""
    def map_(seat: int, goal: int) -> dict[str, Any]:
        return {"type": "map", "seat": seat, "goal": goal}

    end = {"type": "round_end", "roles": ["gold-digger", "gold-digger", "saboteur"]}
    log = [{"type": "round_start"}, map_(0, 1), map_(2, 1), map_(1, 1), map_(1, 0), end,
           {"type": "round_start"}, map_(1, 1), end]
    assert dup.maps(log, "base") == {"gold-diggers": [4, 1], "saboteurs": [1, 0]}
    lines = [{"ruleset": "base", "who": "normal",
              "maps": {"gold-diggers": [4, 3], "saboteurs": [0, 0]}},
             {"ruleset": "base", "who": "gold-diggers",
              "maps": {"gold-diggers": [4, 1], "saboteurs": [0, 0]}}]
    assert "| base | gold-diggers | 4 | 75% | 4 | 25% |" in dup.remaps(["base"], lines)


def test_each_results_share_is_counted_on_the_deals_played_both_ways(dup: Any) -> None:
    """Where a door team's gain goes: with the blue team at the strong level one round
    the green team won becomes the saboteurs'; a deal the blue team did not play strong
    (seed 2) counts for neither level."""
    def line(seed: int, who: str, result: str) -> dict[str, Any]:
        return {"ruleset": "saboteur2", "low": 6, "high": 9, "seed": seed, "rounds": 1,
                "who": who, "results": [result]}

    lines = [line(0, "normal", "green"), line(0, "blue", "saboteurs"),
             line(1, "normal", "blue"), line(1, "blue", "blue"),
             line(2, "normal", "green")]
    table = dup.outcomes(["saboteur2"], lines).splitlines()
    assert "| saboteur2: side | deals | played by | blue | green | saboteurs |" in table
    assert "| blue | 2 | normal | 50% | 50% | 0% |" in table
    assert "| blue | 2 | strong | 50% | 0% | 50% |" in table
    assert "| green | 0 | normal | 0% | 0% | 0% |" in table
