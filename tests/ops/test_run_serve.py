"""run.py serve's helpers: a busy port is found before anything is created, and a process
that keeps dying is not restarted for ever."""

from __future__ import annotations

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
