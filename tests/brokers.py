"""A broker of the test's own: a RabbitMQ node (Debian's /usr/sbin/rabbitmq-server,
`apt-get install rabbitmq-server`) or a Redis server (/usr/bin/redis-server), started in a
temporary folder on free ports next to any system one, so a test can stop and start its
broker mid-run without touching anybody else's. Used by `.ci/topology.py`; how production
runs them: docs/operations.md "Queues and workers".

    with RabbitMQ.started() as broker:     # or Redis.started()
        url = broker.url()        # amqp://guest:guest@127.0.0.1:<port>//
        broker.restart()          # stopped and started again, its data kept

Each keeps its data in the folder across a restart: the RabbitMQ node its quorum queues'
messages, Redis its append-only file (written on every write, fsync'd every second, and
in full at a clean shutdown). Debian's RabbitMQ script runs the node as the `rabbitmq`
user when started as root: the folder is handed to that user then.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REDIS_SERVER = Path("/usr/bin/redis-server")
SERVER = Path("/usr/sbin/rabbitmq-server")
CTL = Path("/usr/sbin/rabbitmqctl")
START_SECONDS = 90


def available() -> bool:
    return SERVER.exists() and CTL.exists()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


class RabbitMQ:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port, self.dist_port = _free_port(), _free_port()
        self.node = f"saboteur{os.getpid()}@localhost"
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}//"

    def _env(self) -> dict[str, str]:
        return {**os.environ, "RABBITMQ_NODENAME": self.node,
                "RABBITMQ_NODE_PORT": str(self.port), "RABBITMQ_DIST_PORT": str(self.dist_port),
                "RABBITMQ_MNESIA_BASE": str(self.folder / "mnesia"),
                "RABBITMQ_LOG_BASE": str(self.folder / "log"),
                "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.folder / "plugins"),
                "RABBITMQ_FEATURE_FLAGS_FILE": str(self.folder / "mnesia" / "feature_flags"),
                "RABBITMQ_PID_FILE": str(self.folder / "node.pid"),
                "RABBITMQ_CONFIG_FILE": str(self.folder / "none")}

    def start(self) -> None:
        log = (self.folder / "server.out").open("ab")
        self.proc = subprocess.Popen([str(SERVER)], env=self._env(), stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_SECONDS
        while not _answers(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"RabbitMQ did not start: see {self.folder}/server.out")
            time.sleep(0.5)  # a server starting: nothing to wait on but its port

    def stop(self) -> None:
        subprocess.run([str(CTL), "-n", self.node, "stop"], env=self._env(),
                       capture_output=True, check=False, timeout=120)
        if self.proc is not None:
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def restart(self) -> float:
        """Stop the node and start it again; the seconds it was away."""
        began = time.monotonic()
        self.stop()
        self.start()
        return time.monotonic() - began

    @classmethod
    @contextmanager
    def started(cls) -> Iterator[RabbitMQ]:
        folder = Path(tempfile.mkdtemp(prefix="saboteur-rabbitmq-"))
        for sub in ("mnesia", "log"):
            (folder / sub).mkdir()
        (folder / "plugins").write_text("[].\n")
        if os.geteuid() == 0:  # Debian's script drops to the rabbitmq user
            shutil.chown(folder, "rabbitmq", "rabbitmq")
            for path in folder.rglob("*"):
                shutil.chown(path, "rabbitmq", "rabbitmq")
        broker = cls(folder)
        try:
            broker.start()
            yield broker
        finally:
            broker.stop()
            shutil.rmtree(folder, ignore_errors=True)


class Redis:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        log = (self.folder / "server.out").open("ab")
        self.proc = subprocess.Popen(
            [str(REDIS_SERVER), "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.folder), "--appendonly", "yes", "--save", "",
             "--daemonize", "no"], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_SECONDS
        while not _answers(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Redis did not start: see {self.folder}/server.out")
            time.sleep(0.2)  # a server starting: nothing to wait on but its port

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()  # SIGTERM: Redis writes its append-only file and exits
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def restart(self) -> float:
        began = time.monotonic()
        self.stop()
        self.start()
        return time.monotonic() - began

    @classmethod
    @contextmanager
    def started(cls) -> Iterator[Redis]:
        folder = Path(tempfile.mkdtemp(prefix="saboteur-redis-"))
        server = cls(folder)
        try:
            server.start()
            yield server
        finally:
            server.stop()
            shutil.rmtree(folder, ignore_errors=True)
