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


@pytest.fixture
def dup(monkeypatch: pytest.MonkeyPatch) -> Any:
    """bench/bots_dup.py, with a small search (the table's shape, not its strength)."""
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.setattr(SEARCH, "WORLDS", 1)
    monkeypatch.setattr(SEARCH, "STEPS", 8)
    module = importlib.import_module("bots_dup")
    monkeypatch.setitem(module.RANGES, "base", [(3, 5)])  # one band: a tiny run
    yield module
    sys.modules.pop("bots_dup", None)


def run(dup: Any, path: Path, seeds: range) -> str:
    """Play the base 3-5 games of `seeds` missing from `path`; the table of the file."""
    done = {dup.key(line) for line in dup.read(path)}
    for job in dup.jobs(["base"], seeds, 1, done):
        dup.append(path, dup.play(job))
    return str(dup.table(["base"], dup.read(path)))


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
