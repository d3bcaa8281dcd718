"""The embedded broker: kombu's filesystem transport, made safe for `run.py serve`.

kombu's own version (5.x, still 5.7.0) has two faults under load: a message file appears
in the queue folder before its bytes are written, so a worker can read half a message
(JSONDecodeError: the worker died, the task was lost), and files are named by
`monotonic()` milliseconds sorted as text, so after a reboot, or when the number of digits
grows, newer messages are served before older ones (invitations waited an hour behind
6,000 newer ones).

Here a message is written to a temporary file in a sibling folder and renamed into the
queue folder (atomic on one filesystem), its name starts with the wall-clock time in
nanoseconds zero-padded to 20 digits plus a per-process sequence (names sort oldest
first), and a file that still cannot be read is moved to a `bad` folder and logged instead
of crashing the worker. The exchange tables (which queue a routing key goes to) are
written the same way: kombu truncates and rewrites them in place, so a process publishing
while another binds its queue could read an empty table (JSONDecodeError in the
publisher), and a thread publishing while another of its process binds found no queue
and dropped the message. Registered for `filesystem://` URLs (saboteur_site/celery.py).

The atomic writes, the order and the bindings are offered to kombu as
deploy/upstream/kombu-filesystem-atomic-writes.patch (tests that fail on kombu 5.7.0 and
main, pass with it; deploy/upstream/README.md says how to send it, and what the fsync and
the `bad` folder need). No kombu release has them yet; once one does, pin it and delete
this module.
"""

from __future__ import annotations

import itertools
import logging
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from queue import Empty
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

log = logging.getLogger("games")
_sequence = itertools.count()


def message_name(queue: str) -> str:
    """Sorts by time across processes and reboots: 20-digit ns, sequence, uniqueness."""
    return f"{time.time_ns():020d}_{next(_sequence) % 10**6:06d}_{uuid.uuid4().hex}.{queue}.msg"


class Channel(filesystem.Channel):
    def get_table(self, exchange: str) -> list[Any]:
        """The exchange's bindings on disk, plus this process's own: kombu records a
        binding in memory (shared by every connection of the process) before writing it
        to disk, so another thread that publishes in between would find no queue and
        drop the message."""
        on_disk = list(super().get_table(exchange))
        here = (self.state.exchanges or {}).get(exchange, {}).get("table", [])
        return on_disk + [filesystem.exchange_queue_t(*meta) for meta in here
                          if tuple(meta) not in on_disk]

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str,  # type: ignore[override]
                    queue: str) -> None:
        """Add the binding to the exchange's table: a new file renamed over the old one
        (readers see the old table or the new, never a half-written one), writers one
        at a time under a lock file of their own."""
        table = self._exchange_file(exchange)  # type: ignore[attr-defined]
        self.control_folder.mkdir(exist_ok=True)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        try:
            with table.with_name(table.name + ".lock").open("a") as guard:
                filesystem.lock(guard, filesystem.LOCK_EX)  # type: ignore[attr-defined]
                try:
                    bound = self.get_table(exchange)
                    if entry in bound:
                        return
                    partial = table.with_name(f"{table.name}.{uuid.uuid4().hex}.partial")
                    partial.write_bytes(str_to_bytes(dumps([entry, *bound])))
                    partial.replace(table)
                finally:
                    filesystem.unlock(guard)
        except OSError as exc:
            raise ChannelError(f"Cannot bind queue {queue!r} to {exchange!r}") from exc

    def _side_folder(self, name: str) -> Path:
        folder = Path(self.data_folder_out).parent / name
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        name = message_name(queue)
        partial = self._side_folder("partial") / name
        try:
            with partial.open("wb") as handle:
                handle.write(str_to_bytes(dumps(payload)))
                handle.flush()
                os.fsync(handle.fileno())
            partial.replace(Path(self.data_folder_out) / name)
        except OSError as exc:
            raise ChannelError(f"Cannot add a message to queue {queue!r}") from exc

    def _get(self, queue: str, timeout: Any = None) -> Any:
        wanted = f"{queue}.msg"
        for name in sorted(entry.name for entry in Path(self.data_folder_in).iterdir()):
            if name.partition(".")[2] != wanted:
                continue
            taken = Path(self.processed_folder if self.store_processed
                         else tempfile.gettempdir()) / name
            try:
                shutil.move(Path(self.data_folder_in) / name, taken)
            except OSError:
                continue  # another worker took it
            try:
                payload = taken.read_bytes()
                message = loads(bytes_to_str(payload))
            except (OSError, ValueError):
                self._set_aside(taken)
                continue
            if not self.store_processed:
                taken.unlink(missing_ok=True)
            return message
        raise Empty()

    def _set_aside(self, path: Path) -> None:
        log.error("broker: unreadable message %s set aside in the bad folder", path.name)
        try:
            shutil.move(str(path), self._side_folder("bad") / path.name)
        except OSError:
            path.unlink(missing_ok=True)


class Transport(filesystem.Transport):
    Channel = Channel
