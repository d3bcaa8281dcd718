"""A PostgreSQL streaming replica made on this machine for a test or the topology, as
docs/operations.md "Reads from a replica" makes one in production: a throwaway primary
(initdb in a temporary folder, a free port, wal_level=replica, trust for replication from
127.0.0.1) and its standby (pg_basebackup -R into another folder, started on another free
port), streaming before `started` yields; both stopped and their folders removed after.
The machine's own PostgreSQL (5432) is never touched. Used by .ci/topology.py and
tests/ops/test_streaming_replica.py.

    with StreamingReplica.started() as pair:
        pair.primary_url("postgres")   # postgres://postgres@127.0.0.1:<port>/postgres
        pair.standby_url("postgres")   # the standby: reads only

As root (PostgreSQL refuses to run as root) the servers run as the `postgres` user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

USER = "postgres"
NEEDED = ("initdb", "pg_ctl", "pg_basebackup", "postgres")
WAIT = 60  # seconds the standby may take to stream, or to replay what it is asked to

PRIMARY_CONF = """
listen_addresses = '127.0.0.1'
port = {port}
unix_socket_directories = '{folder}'
wal_level = replica
max_wal_senders = 5
hot_standby = on
# A throwaway: nothing to keep after a crash, so no flush to disk (faster on a shared disk).
fsync = off
"""
STANDBY_CONF = """
port = {port}
unix_socket_directories = '{folder}'
"""
# The topology counts the statements the standby answered for each page (log_statement).
STATEMENT_LOG = """
log_statement = 'all'
log_line_prefix = '%m [%p] '
"""


def bindir() -> Path | None:
    """The folder of one PostgreSQL version's server programs (initdb, pg_ctl,
    pg_basebackup, postgres): the one `initdb` on the PATH comes from, else the newest
    under /usr/lib/postgresql (Debian keeps them off the PATH)."""
    found = shutil.which("initdb")
    candidates = [Path(os.path.realpath(found)).parent] if found else []
    versions = [d for d in Path("/usr/lib/postgresql").glob("*/bin") if d.parent.name.isdigit()]
    candidates += sorted(versions, key=lambda d: int(d.parent.name), reverse=True)
    return next((d for d in candidates if all((d / name).exists() for name in NEEDED)), None)


def available() -> bool:
    return bindir() is not None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class StreamingReplica:
    folder: Path
    bin: Path
    primary_port: int
    standby_port: int
    made_in: float = 0.0  # seconds from initdb to the standby streaming
    log_statements: bool = False
    steps: dict[str, float] = field(default_factory=dict)

    # ---- addresses -------------------------------------------------------------------

    def primary_url(self, database: str = "postgres") -> str:
        return f"postgres://{USER}@127.0.0.1:{self.primary_port}/{database}"

    def standby_url(self, database: str = "postgres") -> str:
        return f"postgres://{USER}@127.0.0.1:{self.standby_port}/{database}"

    # ---- what the pair does ----------------------------------------------------------

    def query(self, url: str, sql: str) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            cursor = conn.execute(sql)
            return list(cursor.fetchall()) if cursor.description else []

    def lag(self) -> tuple[float | None, int]:
        """How far the standby is behind, as the primary sees it (pg_stat_replication):
        seconds of replay lag (None when the primary has not measured any yet) and bytes
        of WAL written but not replayed."""
        rows = self.query(self.primary_url(), (
            "SELECT EXTRACT(EPOCH FROM replay_lag)::float8, "
            "pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint "
            "FROM pg_stat_replication"))
        if not rows:
            raise RuntimeError("the standby is not connected to the primary")
        seconds, behind = rows[0]
        return seconds, int(behind or 0)

    def wait_replayed(self) -> float:
        """Wait until the standby has replayed everything written on the primary so far;
        the seconds it took."""
        began = time.monotonic()
        target = self.query(self.primary_url(), "SELECT pg_current_wal_lsn()::text")[0][0]
        sql = f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn"
        while not self.query(self.standby_url(), sql)[0][0]:
            if time.monotonic() - began > WAIT:
                raise RuntimeError(f"the standby did not replay up to {target} in {WAIT} s")
            time.sleep(0.02)
        return time.monotonic() - began

    def standby_log(self) -> Path:
        return self.folder / "standby.log"

    def log_size(self) -> int:
        return self.standby_log().stat().st_size

    def statements_since(self, offset: int, marker: str = '"games_') -> int:
        """Statements the standby logged since `offset` that read the project's tables
        (log_statement, with `log_statements`): a page's reads, not a health look."""
        with self.standby_log().open("rb") as log:
            log.seek(offset)
            text = log.read().decode(errors="replace")
        return sum(1 for line in text.splitlines() if "statement: " in line and marker in line)

    def stop_primary(self) -> None:
        self._pg_ctl("stop", "-D", str(self.folder / "primary"), "-m", "fast")

    # ---- making and unmaking ---------------------------------------------------------

    @classmethod
    @contextmanager
    def started(cls, *, log_statements: bool = False) -> Iterator[StreamingReplica]:
        """A primary and its streaming standby until the block ends."""
        found = bindir()
        if found is None:
            raise RuntimeError("no PostgreSQL server programs (initdb, pg_ctl, pg_basebackup)")
        folder = Path(tempfile.mkdtemp(prefix="replica-"))
        pair = cls(folder, found, free_port(), free_port(), log_statements=log_statements)
        if os.geteuid() == 0:
            os.chown(folder, pwd.getpwnam(USER).pw_uid, pwd.getpwnam(USER).pw_gid)
        try:
            pair._make()
            yield pair
        finally:
            pair._unmake()

    def _make(self) -> None:
        began = time.monotonic()
        primary, standby = self.folder / "primary", self.folder / "standby"
        self._run("initdb", "-D", str(primary), "-U", USER, "-A", "trust", "--no-sync",
                  "--no-instructions", "-E", "UTF8", "--locale", "C")
        self._append(primary / "postgresql.conf",
                     PRIMARY_CONF.format(port=self.primary_port, folder=self.folder))
        self._append(primary / "pg_hba.conf", "host replication all 127.0.0.1/32 trust\n")
        self._pg_ctl("start", "-D", str(primary), "-l", str(self.folder / "primary.log"))
        self.steps["primary"] = time.monotonic() - began
        self._run("pg_basebackup", "-h", "127.0.0.1", "-p", str(self.primary_port), "-U", USER,
                  "-D", str(standby), "-R", "-X", "stream", "-c", "fast", "--no-sync")
        self.steps["base backup"] = time.monotonic() - began - self.steps["primary"]
        conf = STANDBY_CONF.format(port=self.standby_port, folder=self.folder)
        self._append(standby / "postgresql.conf",
                     conf + (STATEMENT_LOG if self.log_statements else ""))
        self._pg_ctl("start", "-D", str(standby), "-l", str(self.standby_log()))
        self._wait_streaming()
        self.made_in = time.monotonic() - began

    def _wait_streaming(self) -> None:
        deadline = time.monotonic() + WAIT
        sql = "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'"
        while self.query(self.primary_url(), sql)[0][0] < 1:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the standby did not stream within {WAIT} s: "
                                   + self.standby_log().read_text(errors="replace")[-2000:])
            time.sleep(0.05)

    def _unmake(self) -> None:
        for name, mode in (("standby", "immediate"), ("primary", "fast")):
            if (self.folder / name / "postmaster.pid").exists():
                with suppress(subprocess.CalledProcessError):
                    self._pg_ctl("stop", "-D", str(self.folder / name), "-m", mode)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _pg_ctl(self, *args: str) -> None:
        self._run("pg_ctl", *args[:1], "-w", "-s", *args[1:])

    def _run(self, program: str, *args: str) -> None:
        """One of PostgreSQL's programs, as the `postgres` user when this runs as root."""
        as_user: dict[str, Any] = {}
        if os.geteuid() == 0:
            account = pwd.getpwnam(USER)
            as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
        subprocess.run([str(self.bin / program), *args], check=True, capture_output=True,
                       text=True, cwd=self.folder, **as_user, timeout=WAIT,
                       start_new_session=program == "pg_ctl")

    @staticmethod
    def _append(path: Path, text: str) -> None:
        with path.open("a") as conf:
            conf.write(text)
