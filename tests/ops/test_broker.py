"""The embedded broker (saboteur_site/broker.py): first in, first out per queue, nothing
lost, a message never read half-written, an unreadable file set aside, not a crash."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from kombu import Connection

import saboteur_site.celery  # noqa: F401  (registers the filesystem:// transport)
from saboteur_site.broker import Transport, message_name


def connection(folder: Path) -> Any:
    queue = folder / "queue"
    queue.mkdir(parents=True, exist_ok=True)
    return Connection("filesystem://", transport_options={
        "data_folder_in": str(queue), "data_folder_out": str(queue),
        "control_folder": str(folder / "control")})


def test_filesystem_urls_use_the_safe_transport(tmp_path: Path) -> None:
    with connection(tmp_path) as conn:
        assert isinstance(conn.transport, Transport)


def test_messages_come_out_in_order_per_queue(tmp_path: Path) -> None:
    with connection(tmp_path) as conn:
        a, b = conn.SimpleQueue("a"), conn.SimpleQueue("b")
        for n in range(300):
            a.put({"n": n})
            b.put({"n": n})
        got_a = [a.get(timeout=1).payload["n"] for _ in range(300)]
        got_b = [b.get(timeout=1).payload["n"] for _ in range(300)]
        assert got_a == list(range(300)) and got_b == list(range(300))


def test_a_broken_file_is_set_aside_and_the_rest_still_flows(tmp_path: Path) -> None:
    with connection(tmp_path) as conn:
        queue = conn.SimpleQueue("c")
        queue.put({"n": 1})
        (tmp_path / "queue" / message_name("c")).write_bytes(b'{"half": ')
        queue.put({"n": 2})
        got = [queue.get(timeout=1).payload["n"] for _ in range(2)]
        assert got == [1, 2]
        assert len(list((tmp_path / "bad").iterdir())) == 1


def test_writers_in_threads_never_produce_a_half_read_message(tmp_path: Path) -> None:
    big = "x" * 50_000
    with connection(tmp_path) as conn:
        def write(start: int) -> None:
            with connection(tmp_path) as own:
                writer = own.SimpleQueue("d")
                for n in range(start, start + 50):
                    writer.put({"n": n, "pad": big})
        threads = [threading.Thread(target=write, args=(k * 50,)) for k in range(4)]
        for thread in threads:
            thread.start()
        reader = conn.SimpleQueue("d")
        seen = [reader.get(timeout=10).payload["n"] for _ in range(200)]
        for thread in threads:
            thread.join()
        assert sorted(seen) == list(range(200))
        assert not (tmp_path / "bad").exists()


def test_names_sort_by_time_with_a_fixed_number_of_digits() -> None:
    first, second = message_name("q"), message_name("q")
    assert first < second and len(first.split("_")[0]) == 20
