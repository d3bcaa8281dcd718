"""Reproducer for the PR: writer processes put large messages, one reader takes them.

Run it with the kombu to test first on the path:
    PYTHONPATH=/path/to/kombu-checkout python stress_filesystem_transport.py
It prints how many messages were read half-written (JSONDecodeError: lost).
Measured on 2 shared cores: kombu 5.7.0 lost 33 and 51 of 80 5 MB messages in two runs;
patched, 0 of 80.
"""

from __future__ import annotations

import multiprocessing
import sys
import tempfile
from queue import Empty
from typing import TYPE_CHECKING, cast

import kombu
from kombu import Connection

if TYPE_CHECKING:
    from kombu.transport.filesystem import Channel

WRITERS, MESSAGES, SIZE = 2, 40, 5_000_000


def connection(folder: str) -> Connection:
    return Connection("filesystem://", transport_options={
        "data_folder_in": folder, "data_folder_out": folder,
        "control_folder": folder + "/control"})


def write(folder: str, start: int) -> None:
    with connection(folder) as conn:
        # The filesystem transport's channel: _put and _get are what the PR changes.
        channel = cast("Channel", conn.channel())
        for n in range(start, start + MESSAGES):
            channel._put("q", {"n": n, "pad": "x" * SIZE})


def main() -> int:
    folder = tempfile.mkdtemp()
    writers = [multiprocessing.Process(target=write, args=(folder, k * MESSAGES))
               for k in range(WRITERS)]
    for writer in writers:
        writer.start()
    received, half_read = set(), 0
    with connection(folder) as conn:
        channel = cast("Channel", conn.channel())
        while True:
            try:
                received.add(channel._get("q")["n"])
            except Empty:
                if not any(writer.is_alive() for writer in writers):
                    break
            except ValueError:
                half_read += 1
    total = WRITERS * MESSAGES
    version = kombu.__version__  # type: ignore[attr-defined]  # kombu-stubs leave it out
    print(f"kombu {version} from {kombu.__file__}: received {len(received)} "
          f"of {total}, read half-written {half_read}, lost {total - len(received)}")
    return 1 if len(received) != total else 0


if __name__ == "__main__":
    sys.exit(main())
