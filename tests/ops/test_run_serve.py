"""run.py serve's helpers: a busy port is found before anything is created, and a process
that keeps dying is not restarted for ever."""

from __future__ import annotations

import os
import socket

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
