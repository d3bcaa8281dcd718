"""run.py serve's helpers: a busy port is found before anything is created, and a process
that keeps dying is not restarted for ever."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import run


def test_a_busy_port_is_noticed() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert run.port_in_use("127.0.0.1", port)
    assert not run.port_in_use("127.0.0.1", port)


def test_a_dying_process_is_restarted_but_not_for_ever() -> None:
    assert run.should_restart([100.0], 100.0)
    deaths = [100.0 + n for n in range(run.MAX_RESTARTS_PER_MINUTE)]
    assert run.should_restart(deaths, deaths[-1])
    deaths.append(deaths[-1] + 1)
    assert not run.should_restart(deaths, deaths[-1])
    assert run.should_restart(deaths, deaths[-1] + 61)  # a minute later: again


def test_serve_is_quiet_unless_asked_and_finds_the_link_to_say_again() -> None:
    quiet = dict(run.processes("127.0.0.1", 8000))
    loud = dict(run.processes("127.0.0.1", 8000, verbose=True))
    for name in ("worker", "beat"):
        assert "--quiet" in quiet[name] and quiet[name][quiet[name].index("--loglevel") + 1] \
            == "WARNING"
        assert "--quiet" not in loud[name] and "INFO" in loud[name]
    env = run.serve_env("127.0.0.1", 8000, verbose=False)
    assert env["ACCESS_LOG_LEVEL"] == "WARNING" and env["FRIENDLY_ERRORS"] == "1"
    loud_env = run.serve_env("127.0.0.1", 8000, verbose=True)
    assert loud_env.get("ACCESS_LOG_LEVEL") == os.environ.get("ACCESS_LOG_LEVEL")
    printed = ("Demo game “x”: open a seat link to play that seat.\n"
               "seat 0\tAnn\tann@example.com\thttp://127.0.0.1:8000/play/abc/\n"
               "seat 1\tBert (bot)\t-\t-\n")
    assert run.seat_link(printed) == "http://127.0.0.1:8000/play/abc/"
    assert run.seat_link("seat 1\tBert (bot)\t-\t-\n") == ""
    ready = run.ready_lines(run.seat_link(printed), "http://127.0.0.1:8000")
    assert ready[:2] == ["ready: open your seat link http://127.0.0.1:8000/play/abc/",
                         "new to Saboteur? a first round with a guide: "
                         "http://127.0.0.1:8000/learn/"]


def test_manage_prints_links_on_the_port_serve_uses(tmp_path: Path, monkeypatch: Any) -> None:
    """`serve --port 8101` then `manage creategame` printed links on 8000 (issue 39): serve
    writes where it serves, manage reads it; --port, PORT and SITE_URL choose otherwise."""
    monkeypatch.setattr(run, "SERVED_AT", tmp_path / "var" / "served-at")
    assert run.manage_site_url(None, {})[0] == "http://127.0.0.1:8000"  # never served
    env = run.serve_env("127.0.0.1", 8101, verbose=False)
    run.remember_site_url(env["SITE_URL"])
    assert run.manage_site_url(None, {}) == ("http://127.0.0.1:8101",
                                            "the address `run.py serve` uses")
    assert run.manage_site_url(8102, {})[0] == "http://127.0.0.1:8102"
    assert run.manage_site_url(None, {"PORT": "8103"})[0] == "http://127.0.0.1:8103"
    assert run.manage_site_url(8102, {"SITE_URL": "https://saboteur.example"})[0] == (
        "https://saboteur.example")


def test_run_manage_creategame_prints_links_of_the_served_port(tmp_path: Path,
                                                                monkeypatch: Any) -> None:
    """The whole command, as a user types it (the subprocess is manage.py's)."""
    monkeypatch.setattr(run, "SERVED_AT", tmp_path / "served-at")
    run.remember_site_url("http://127.0.0.1:8101")
    calls: list[dict[str, str]] = []
    monkeypatch.setattr(run, "ensure_env", lambda: None)

    def fake_run(argv: list[str], cwd: Path, env: dict[str, str]) -> Any:
        calls.append(env)
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.setattr(run.subprocess, "run", fake_run)
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.delenv("PORT", raising=False)
    monkeypatch.setattr(sys, "argv", ["run.py", "manage", "creategame", "--name", "x"])
    assert run.main() == 0
    assert calls[-1]["SITE_URL"] == "http://127.0.0.1:8101"
    monkeypatch.setattr(sys, "argv", ["run.py", "manage", "--port", "8105", "demo"])
    assert run.main() == 0
    assert calls[-1]["SITE_URL"] == "http://127.0.0.1:8105"


def test_run_manage_passes_help_and_options_after_the_command_to_it(
        tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    """`run.py manage creategame --help` printed run.py manage's own help: everything after
    the command reaches manage.py untouched (its --help, and a --port of the command's)."""
    monkeypatch.setattr(run, "SERVED_AT", tmp_path / "served-at")
    monkeypatch.setattr(run, "ensure_env", lambda: None)
    calls: list[list[str]] = []

    def fake_run(argv: list[str], cwd: Path, env: dict[str, str]) -> Any:
        calls.append(argv)
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.setattr(run.subprocess, "run", fake_run)
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.delenv("PORT", raising=False)
    monkeypatch.setattr(sys, "argv", ["run.py", "manage", "creategame", "--help"])
    assert run.main() == 0
    assert calls[-1][1:] == ["manage.py", "creategame", "--help"]
    monkeypatch.setattr(sys, "argv", ["run.py", "manage", "--port", "8106", "demo", "--help",
                                      "--port", "9"])
    assert run.main() == 0
    assert calls[-1][1:] == ["manage.py", "demo", "--help", "--port", "9"]
    assert "usage: run.py manage" not in capsys.readouterr().out

