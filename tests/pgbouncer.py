"""Debian's PgBouncer (/usr/sbin/pgbouncer, `apt-get install pgbouncer`), started for a
test or a bench with a config of its own in a temporary folder: transaction pooling, trust
authentication from 127.0.0.1, every database of the PostgreSQL at 127.0.0.1:5432, a port
of its own. Used by .ci/topology.py and `bench/api.py --pgbouncer`; how production runs
it: docs/operations.md "PgBouncer".

    with PgBouncer.started() as bouncer:
        url = bouncer.url("mydb")   # postgres://postgres@127.0.0.1:<port>/mydb
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BINARY = Path("/usr/sbin/pgbouncer")
UPSTREAM_HOST, UPSTREAM_PORT, USER = "127.0.0.1", 5432, "postgres"

CONFIG = """\
[databases]
* = host={upstream_host} port={upstream_port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder}/userlist.txt
admin_users = {user}
pool_mode = transaction
; more clients than server connections: the pooler's point
max_client_conn = 500
default_pool_size = {pool_size}
; psycopg sends none, but a client may: tolerated, not tracked
ignore_startup_parameters = extra_float_digits,options
server_reset_query =
logfile = {folder}/pgbouncer.log
pidfile = {folder}/pgbouncer.pid
"""


def available() -> bool:
    return BINARY.exists()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PgBouncer:
    port: int
    folder: Path
    process: subprocess.Popen[bytes]

    def url(self, database: str) -> str:
        return f"postgres://{USER}@127.0.0.1:{self.port}/{database}"

    def log(self) -> str:
        try:
            return (self.folder / "pgbouncer.log").read_text(errors="replace")
        except OSError:
            return ""

    def show(self, what: str) -> list[dict[str, Any]]:
        """SHOW POOLS, SHOW STATS...: the admin console's rows, by column name."""
        import psycopg

        # The admin console speaks the simple query protocol only: a client-side cursor.
        with psycopg.connect(f"postgresql://{USER}@127.0.0.1:{self.port}/pgbouncer",
                             autocommit=True, prepare_threshold=None,
                             cursor_factory=psycopg.ClientCursor) as conn:
            cursor = conn.execute(f"SHOW {what}")
            names = [column.name for column in cursor.description or []]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def database_row(self, what: str, database: str) -> dict[str, Any]:
        """The row of SHOW POOLS or SHOW STATS for `database` ({} before its first client)."""
        return next((row for row in self.show(what) if row["database"] == database), {})

    def version(self) -> str:
        found = subprocess.run([str(BINARY), "--version"], capture_output=True, text=True)
        return found.stdout.split("\n", 1)[0].strip()

    @classmethod
    @contextmanager
    def started(cls, pool_size: int = 20,
                upstream_port: int = UPSTREAM_PORT) -> Iterator[PgBouncer]:
        """PgBouncer running until the block ends (then stopped, its folder removed), in
        front of the PostgreSQL at 127.0.0.1:`upstream_port` (the topology's own primary
        when it runs with a replica: tests/replica.py)."""
        if not available():
            raise RuntimeError(f"no {BINARY}: apt-get install pgbouncer")
        folder = Path(tempfile.mkdtemp(prefix="pgbouncer-"))
        port = _free_port()
        (folder / "userlist.txt").write_text(f'"{USER}" ""\n')
        (folder / "pgbouncer.ini").write_text(CONFIG.format(
            upstream_host=UPSTREAM_HOST, upstream_port=upstream_port, port=port,
            folder=folder, user=USER, pool_size=pool_size))
        if os.geteuid() == 0:  # PgBouncer refuses to run as root: as `nobody`, then
            folder.chmod(0o777)
        bouncer = cls(port, folder, _launch(folder))
        try:
            bouncer._wait_listening()
            yield bouncer
        finally:
            if bouncer.process.poll() is None:
                bouncer.process.send_signal(signal.SIGINT)  # "safe shutdown": waits for clients
                try:
                    bouncer.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    bouncer.process.kill()
                    bouncer.process.wait()
            shutil.rmtree(folder, ignore_errors=True)

    def restart(self) -> float:
        """Stop it at once (SIGTERM: every client's connection dropped, as when the
        pooler's machine restarts) and start it again on the same port and config; the
        seconds it was away. Used by bench/chaos.py."""
        began = time.monotonic()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = _launch(self.folder)
        self._wait_listening()
        return time.monotonic() - began

    def _wait_listening(self, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"pgbouncer exited ({self.process.returncode}):\n"
                                   f"{self.log()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"pgbouncer did not listen within {timeout} s:\n{self.log()[-2000:]}")


def _launch(folder: Path) -> subprocess.Popen[bytes]:
    argv = [str(BINARY), str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:
        argv[1:1] = ["-u", "nobody"]
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT, start_new_session=True)
