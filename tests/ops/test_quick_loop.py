"""`python3 run.py test --quick`: ruff and the engine, bot and move-service tests without
the ones marked slow; the whole `run.py test` runs every check and every test."""

from __future__ import annotations

from pathlib import Path

import run


def test_the_quick_loop_runs_ruff_and_the_quick_tests_without_the_slow_ones() -> None:
    names = [name for name, _ in run.checks(quick=True, pytest_args=["-x"])]
    assert names == ["ruff", "pytest (quick)"]
    [pytest] = [argv for name, argv in run.checks(quick=True, pytest_args=["-x"])
                if name.startswith("pytest")]
    assert pytest[pytest.index("not slow") - 1] == "-m" and pytest[-1] == "-x"
    assert all(path in pytest and (run.ROOT / path).is_dir() for path in run.QUICK)
    assert not any("browser" in path for path in run.QUICK)


def test_the_whole_run_has_every_check_and_no_marker_filter() -> None:
    checks = dict(run.checks(quick=False, pytest_args=[]))
    assert list(checks) == ["ruff", "mypy", "import layers", "dead code", "pytest"]
    assert "not slow" not in checks["pytest"] and not set(run.QUICK) & set(checks["pytest"])


def test_the_slow_marker_is_used_where_the_quick_loop_would_meet_it() -> None:
    """Whole games and the engine's self-play are marked slow inside the quick loop's
    folders, so the loop leaves them out."""
    marked = {path.relative_to(run.ROOT).as_posix()
              for folder in run.QUICK for path in Path(run.ROOT, folder).rglob("test_*.py")
              if "mark.slow" in path.read_text(encoding="utf-8")}
    assert {"tests/engine/test_selfplay.py", "tests/play/test_full_games.py",
            "tests/play/test_saboteur2_games.py"} <= marked
