"""`python3 run.py test --quick`: ruff and the engine, bot and move-service tests without
the ones marked slow; the whole `run.py test` runs every check and every test."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

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


def test_the_sqlite_run_makes_its_databases_from_the_models_only_beside_a_migrating_leg(
) -> None:
    """Where the PostgreSQL leg (which migrates) runs the data migrations' replays, the
    SQLite run makes its databases from the models; without that leg it migrates, so the
    replays run somewhere. The quick loop has none of them: it never migrates."""
    assert "--no-migrations" in dict(run.checks(False, [], from_models=True))["pytest"]
    assert "--no-migrations" not in dict(run.checks(False, []))["pytest"]
    assert "--no-migrations" in dict(run.checks(True, []))["pytest (quick)"]
    marked = {path.relative_to(run.ROOT).as_posix()
              for path in Path(run.ROOT, "tests").rglob("test_*.py")
              if "@pytest.mark.migrations" in path.read_text(encoding="utf-8")}
    assert {"tests/players/test_mailbox_identity.py",
            "tests/players/test_deliverable_addresses.py"} <= marked
    assert not [path for path in marked for folder in run.QUICK if path.startswith(folder + "/")]


def test_the_slow_marker_is_used_where_the_quick_loop_would_meet_it() -> None:
    """Whole games and the engine's self-play are marked slow inside the quick loop's
    folders, so the loop leaves them out."""
    marked = {path.relative_to(run.ROOT).as_posix()
              for folder in run.QUICK for path in Path(run.ROOT, folder).rglob("test_*.py")
              if "mark.slow" in path.read_text(encoding="utf-8")}
    assert {"tests/engine/test_selfplay.py", "tests/play/test_full_games.py",
            "tests/play/test_saboteur2_games.py"} <= marked


def marks(argv: list[str]) -> str:
    """What pytest's -m selects (after `python -m pytest`)."""
    after = argv[argv.index("pytest") + 1:]
    return after[after.index("-m") + 1]


def test_where_postgresql_answers_the_postgres_tests_run_again_on_a_throwaway_database(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast move store runs only on PostgreSQL: `run.py test` (and `--quick`, for the
    move service's) runs the tests marked postgres there too, on a database of its own,
    unless DATABASE_URL already points the run at one or RUN_TEST_POSTGRES=0 (.ci/run)."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("RUN_TEST_POSTGRES", raising=False)
    monkeypatch.setattr(run, "postgres_answers", lambda url=run.POSTGRES_URL: True)
    leg = run.postgres_leg(False, [])
    assert leg is not None
    _name, argv, url = leg
    assert marks(argv) == "postgres or migrations" and url.endswith(f"/saboteur_run_{os.getpid()}")
    _name, quick, _url = run.postgres_leg(True, []) or ("", [], "")
    assert marks(quick) == "postgres and not slow"
    assert all(path in quick for path in run.QUICK)
    monkeypatch.setenv("RUN_TEST_POSTGRES", "0")
    assert run.postgres_leg(False, []) is None
    monkeypatch.delenv("RUN_TEST_POSTGRES")
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mine")
    assert run.postgres_leg(False, []) is None
    monkeypatch.delenv("DATABASE_URL")
    monkeypatch.setattr(run, "postgres_answers", lambda url=run.POSTGRES_URL: False)
    assert run.postgres_leg(False, []) is None


def test_the_leg_run_beside_the_suite_shows_its_output_after_it_and_its_failure(
        capfd: pytest.CaptureFixture[str]) -> None:
    """The PostgreSQL leg runs beside the other checks: its output is shown whole when it
    ends (never interleaved with the suite's dots), and its exit code is what it ran."""
    script = "import sys; print('leg says'); sys.exit(3)"
    beside = run.Beside("the leg", [sys.executable, "-c", script], dict(os.environ))
    print("suite says", flush=True)
    assert beside.finish() == 3
    out = capfd.readouterr().out
    assert out.index("suite says") < out.index("leg says") < out.index("==> the leg:")
