"""The production topology, started for real and played through (`.ci/run` runs this when
PostgreSQL answers and redis-server and PgBouncer are installed; docs/operations.md "The
topology in CI"):

two web nodes (two gunicorns with gunicorn.conf.py, each with its own processes and their
caches) + a Celery worker per queue + the one beat, on one PostgreSQL (a throwaway database)
reached through PgBouncer in transaction pooling (Debian's /usr/sbin/pgbouncer, started
here with a config of its own: tests/pgbouncer.py; DATABASE_POOLER=pgbouncer, and a pool
of POOL server connections for the dozen processes) and a Redis and a broker of the
run's own (below), emails over SMTP to a local aiosmtpd server. Several games are played
to the end through the JSON API, each seat from the private link its invitation email
brought, each game's moves sent to the two nodes in turn. Halfway through the moves the
workers are killed with SIGKILL while one of them is inside an SMTP DATA: the server holds
one message without answering it, so the worker has sent the whole message and waits for
the 250 when it dies; the server never accepts that message (the client got no answer,
exactly as when a real server's connection drops). The workers are started again. Then:
every game's replay equals its snapshot; the held email's row was left `sending` by the
kill, was recovered by the beat's sweep and sent again, and arrived exactly once; each
seat's invitation and game-end emails arrived exactly once over SMTP, and one round-end
email per round that ended before the game end (the last round is told in the game-end
email); nothing is left unsent; and PgBouncer carried it all (its own counts: every move's
transactions, the sweeps', the checks'), more clients than server connections sharing its
pool of POOL. EMAIL_TIMEOUT and EMAIL_STUCK_MARGIN_SECONDS are a few seconds here, so the
stuck row is recovered within seconds.

Queues by kind and the broker (issue 49): a worker per queue (two for `mail`, one for
`sweeps` with the digests and inbound mail, one for `bots`), as the units in deploy/ run
them; the broker is a server of the run's own (tests/brokers.py: `--broker redis`, the
default, or `--broker rabbitmq`, a RabbitMQ node with quorum queues), and the cache another
Redis of its own. Three quarters through the moves the broker is stopped, BROKER_AWAY_MOVES
moves are played without it (their emails wait in the after-move outbox), and it is started
again; the final checks above then hold. After them, the flood: a probe game of three
people, whose first turn email the SMTP server refuses once (451: the send task retries
on a countdown, which RabbitMQ keeps with Celery's native delayed delivery), then its
turn emails' usual time, then FLOOD games of bots whose first moves are queued at once on
`bots` (that worker stopped while they are queued) and the probe's next turn email timed
again: within twice its usual time plus a second, with most of the bot moves still
waiting; every probe email arrives once.

    .venv/bin/python .ci/topology.py --broker rabbitmq

With a replica (docs/operations.md "Reads from a replica"), as it runs wherever
PostgreSQL's server programs are installed (`--no-replica`: the machine's PostgreSQL at
5432, as before): the run makes its own streaming replica first (tests/replica.py: a
throwaway primary with initdb on a free port, its standby with pg_basebackup -R on
another; the machine's cluster is not touched). PgBouncer stands before that primary,
DATABASE_REPLICA_URL names the standby, and the standby logs every statement. The
standby's lag is looked at twice a second all through the run. The moment a game's last
move is answered, its mover's seat page, replay and record are read on the other node:
the standby must answer none of their statements (read-your-writes: the move's mark in the
shared cache). Once the games are over and the window has passed, every game's finished
seat page, replay and record, and the ratings and tables lists, are read again: the
standby must answer each of them.

Waiting never sleeps blindly: the processes' own "ready" lines are read from their output,
and arriving emails wake a condition variable.

    .venv/bin/python .ci/topology.py
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import email
import email.policy
import json
import logging
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project, for the checks through Django
from tests.brokers import RabbitMQ, Redis  # noqa: E402 (found through the path just set)
from tests.pgbouncer import PgBouncer  # noqa: E402
from tests.replica import StreamingReplica  # noqa: E402
from tests.replica import available as replica_available  # noqa: E402

PYTHON = ROOT / ".venv" / "bin" / "python"
PG = "postgresql://postgres@127.0.0.1:5432"  # the run's own primary's, with a replica
POOL = 4  # PgBouncer's server connections for the database: fewer than its clients
GAMES = 3
FLOOD = 500  # bot moves queued at once while a turn email is timed (the flood phase)
BROKER_AWAY_MOVES = 15  # moves played while the broker is stopped
PLAYERS = 3
SEED = 100
WAIT = 240  # seconds any one wait may take before the check fails


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mailbox:
    """The SMTP server's inbox: Message-IDs received (and when), the text each recipient
    got, and a condition to wait on.

    aiosmtpd calls handle_DATA once the whole message is in; the client then waits for
    the answer. While `hold_armed`, the next message is held there unanswered until
    `release` is set; it is never recorded as received: its client gets no 250 (the kill
    drops the connection, which cancels the handler), so it was not delivered."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.arrived: dict[str, float] = {}
        self.texts: dict[str, list[str]] = {}
        self.changed = threading.Condition()
        self.hold_armed = False
        self.held: str | None = None
        self.held_ending = ""  # how the held session ended: "connection lost" or "released"
        self.release = threading.Event()
        self.refuse_armed = False  # the next message gets a 451 at once (a retry follows)
        self.refused: str | None = None
        self.refused_at = 0.0
        self.deliveries: list[tuple[float, str]] = []  # (arrival, recipient) in order

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        found = re.search(rb"^Message-ID:\s*(<[^>]+>)", envelope.content, re.M | re.I)
        message_id = found.group(1).decode() if found else "?"
        with self.changed:
            if self.refuse_armed and self.refused is None:
                self.refused, self.refused_at = message_id, time.monotonic()
                self.changed.notify_all()
                return "451 4.3.0 Not now, try again later"
            hold = self.hold_armed and self.held is None
            if hold:
                self.held = message_id
                self.changed.notify_all()
        if hold:
            try:
                await asyncio.get_running_loop().run_in_executor(None, self.release.wait)
            except asyncio.CancelledError:  # the client's connection dropped (aiosmtpd)
                self._held_ended("connection lost")
                raise
            self._held_ended("released")
            return "451 4.3.0 Not accepted, try again later"
        with self.changed:
            self.ids.append(message_id)
            self.arrived.setdefault(message_id, time.monotonic())
            for recipient in envelope.rcpt_tos:
                self.texts.setdefault(recipient.lower(), []).append(text_of(envelope.content))
                self.deliveries.append((time.monotonic(), recipient.lower()))
            self.changed.notify_all()
        return "250 OK"

    def _held_ended(self, how: str) -> None:
        with self.changed:
            self.held_ending = how
            self.changed.notify_all()


def text_of(content: bytes) -> str:
    """The text/plain parts of a message, decoded."""
    message = email.message_from_bytes(content, policy=email.policy.default)
    return "\n".join(part.get_content() for part in message.walk()  # type: ignore[attr-defined]
                     if part.get_content_type() == "text/plain")


def admin_sql(sql: str) -> None:
    import psycopg
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def start(name: str, argv: list[str], env: dict[str, str], ready: str) -> subprocess.Popen[str]:
    """Start a process and read its output until the line that says it is ready."""
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    assert proc.stdout is not None
    deadline = threading.Timer(WAIT, lambda: os.killpg(proc.pid, signal.SIGKILL))
    deadline.start()
    try:
        for line in proc.stdout:
            if ready in line:
                break
        else:
            raise SystemExit(f"{name} stopped before it was ready")
    finally:
        deadline.cancel()
    output = proc.stdout
    threading.Thread(target=lambda: [None for _ in output], daemon=True).start()
    print(f"==> {name} is up")
    return proc


def api(base: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def predicted_moves(seed: int) -> int:
    """How many moves a game takes when every move is the last legal one (what the loop
    below plays): the engine is deterministic, so the halfway point is known up front."""
    from games import engine

    state, count = engine.new_game(PLAYERS, seed), 0
    while moves := engine.legal_moves(state):
        state, count = engine.apply(state, moves[-1]), count + 1
    return count


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.settings")
    import django
    django.setup()


def own_links(mailbox: Mailbox, number: int) -> list[str]:
    """Each seat's private link, from the invitation email its player received."""
    addresses = [f"p{number}{n}@x.org" for n in range(PLAYERS)]

    def link(address: str) -> str | None:
        for text in mailbox.texts.get(address, []):
            found = re.search(r"/play/([A-Za-z0-9_-]{43})/", text)
            if found:
                return found.group(1)
        return None

    with mailbox.changed:
        if not mailbox.changed.wait_for(lambda: all(map(link, addresses)), timeout=WAIT):
            raise SystemExit(f"game {number}: the invitations did not arrive")
        return [link(address) or "" for address in addresses]


class Kill:
    """What the kill found: the held email's Message-ID and row, and when it happened."""

    def __init__(self) -> None:
        self.message_id = ""
        self.note_id = 0
        self.at = 0.0
        self.after_moves = 0
        self.recovered_after = 0.0


def wait_until(mailbox: Mailbox, predicate: Callable[[], bool], timeout: float) -> bool:
    """Wait for `predicate` (which may read the database): an arriving email wakes the wait
    at once; a row changed without an email arriving (a skip, the row marked sent after
    its 250) is seen at the next half-second look."""
    deadline = time.monotonic() + timeout
    with mailbox.changed:
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            mailbox.changed.wait(min(left, 0.5))
    return True


def no_open_rows() -> bool:
    """No email waits to be sent, and no move's emails wait to be planned (the beat's
    follow_up_moves takes the after-move outbox's rows every FOLLOW_UP_SECONDS)."""
    from games.game.core.follow_up_rows import FollowUp
    from games.mail.core.notifications import Notification

    Status = Notification.Status
    return not FollowUp.objects.exists() and not Notification.objects.filter(
        status__in=[Status.PENDING, Status.SENDING, Status.RETRYING]).exists()


def kill_mid_send(mailbox: Mailbox, procs: dict[str, subprocess.Popen[str]],
                  workers: dict[str, list[str]], env: dict[str, str], kill: Kill) -> bool:
    """With the hold armed before a move: SIGKILL the workers (one of them waits for the
    answer to the move's email's DATA), start them again, and wait for the beat's sweep
    to recover the row left `sending` (no move is made meanwhile, so the email is still
    due). False, hold disarmed, when no email went out within a few seconds."""
    from games.mail.core.notifications import Notification

    with mailbox.changed:
        if not mailbox.changed.wait_for(lambda: mailbox.held is not None, timeout=10):
            mailbox.hold_armed = False
            return False
    # The sending worker waits for the answer to its DATA (EMAIL_TIMEOUT, 3 s): kill both
    # now (which one holds it does not show from here).
    kill.at = time.monotonic()
    for name in workers:
        os.killpg(procs[name].pid, signal.SIGKILL)
        procs[name].wait()
    with mailbox.changed:
        mailbox.changed.wait_for(lambda: mailbox.held_ending != "", timeout=30)
    mailbox.release.set()
    if mailbox.held_ending != "connection lost":
        raise SystemExit(f"the held SMTP session did not end with the kill: "
                         f"{mailbox.held_ending or 'still open'}")
    kill.message_id = mailbox.held or ""
    found = re.match(r"<saboteur\.(\d+)\.", kill.message_id)
    if not found:
        raise SystemExit(f"the held message is not a notification: {kill.message_id}")
    kill.note_id = int(found.group(1))
    note = Notification.objects.get(pk=kill.note_id)
    if note.status != Notification.Status.SENDING:
        raise SystemExit(f"the held email's row is {note.status} after the kill, not sending")
    print(f"==> workers killed with SIGKILL inside the SMTP DATA of notification {note.pk} "
          f"({note.kind}, row left `sending`); starting them again")
    for name, argv in workers.items():
        procs[name] = start(name, argv, env, "ready.")

    def recovered() -> bool:
        note.refresh_from_db()
        return kill.message_id in mailbox.arrived and note.status == Notification.Status.SENT

    if not wait_until(mailbox, recovered, WAIT):
        raise SystemExit(f"the held email was not recovered: its row is {note.status}")
    kill.recovered_after = mailbox.arrived[kill.message_id] - kill.at
    print(f"==> the sweep sent it again: `sending` -> `sent`, arrived "
          f"{kill.recovered_after:.1f} s after the kill")
    return True


class Brokers:
    """The Redis of the cache (and of the broker, on Redis) and the broker, both the
    run's own (tests/brokers.py): stopping and starting them touches nobody else's."""

    def __init__(self, kind: str, cache: Redis, broker: Redis | RabbitMQ) -> None:
        self.kind, self.cache, self.broker = kind, cache, broker
        self.stopped_at = 0.0  # when the broker was stopped mid-run (0: it runs)
        self.away = 0.0  # seconds it was away

    def broker_url(self) -> str:
        return self.broker.url()

    def stop(self) -> None:
        self.stopped_at = time.monotonic()
        self.broker.stop()

    def start_again(self) -> None:
        self.broker.start()
        self.away, self.stopped_at = time.monotonic() - self.stopped_at, 0.0
        print(f"==> the broker ({self.kind}) is back after {self.away:.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broker", choices=["redis", "rabbitmq"], default="redis",
                        help="the Celery broker: a Redis or a RabbitMQ node of the run's own")
    parser.add_argument("--no-replica", action="store_true",
                        help="on the machine's PostgreSQL at 5432, with no replica")
    args = parser.parse_args()
    global PG  # with a replica: the run's own primary's address
    if not args.no_replica and not replica_available():
        print("==> PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup) are missing: "
              "the topology runs on the machine's PostgreSQL with no replica")
    with contextlib.ExitStack() as stack:
        pair = None
        if not args.no_replica and replica_available():
            pair = stack.enter_context(StreamingReplica.started(log_statements=True))
            PG = pair.primary_url("").rstrip("/")
            steps = ", ".join(f"{step} {took:.1f} s" for step, took in pair.steps.items())
            print(f"==> a streaming replica of the run's own: primary on port "
                  f"{pair.primary_port}, standby on {pair.standby_port}, made in "
                  f"{pair.made_in:.1f} s ({steps})")
        bouncer = stack.enter_context(PgBouncer.started(
            pool_size=POOL, upstream_port=pair.primary_port if pair else 5432))
        cache = stack.enter_context(Redis.started())
        pool = Pool(bouncer, f"saboteur_topology_{os.getpid()}")
        # The broker is a server of its own, not the cache's: the web's rate limits read
        # the cache on every request, so stopping that one would stop the site too.
        broker: Redis | RabbitMQ = (
            stack.enter_context(RabbitMQ.started()) if args.broker == "rabbitmq"
            else stack.enter_context(Redis.started()))
        standby = Standby(pair)
        try:
            return play_through(pool, Brokers(args.broker, cache, broker), standby)
        finally:
            standby.stop()


class Pool:
    """What PgBouncer's pool for the topology's database held, looked at every few moves:
    the most client and server connections at once."""

    def __init__(self, bouncer: PgBouncer, database: str) -> None:
        self.bouncer, self.database = bouncer, database
        self.clients = self.servers = 0

    def look(self) -> None:
        row = self.bouncer.database_row("POOLS", self.database)
        if row:
            self.clients = max(self.clients, int(row["cl_active"]) + int(row["cl_waiting"]))
            self.servers = max(self.servers, sum(int(row[k]) for k in (
                "sv_active", "sv_idle", "sv_used", "sv_tested", "sv_login")))

    def check(self) -> list[str]:
        """PgBouncer carried the work: every move's transactions and the sweeps' went
        through it, more clients than server connections shared its pool."""
        self.look()
        stats = self.bouncer.database_row("STATS", self.database)
        transactions = int(stats.get("total_xact_count", 0))
        print(f"==> through PgBouncer ({self.bouncer.version()}, transaction pooling): "
              f"{transactions} transactions, {stats.get('total_query_count', 0)} queries; "
              f"at most {self.clients} clients on {self.servers} server connections "
              f"(pool {POOL})")
        problems = []
        if transactions < 1000:
            problems.append(f"only {transactions} transactions went through PgBouncer")
        if not 0 < self.servers <= POOL < self.clients:
            problems.append(f"{self.clients} clients on {self.servers} server connections: "
                            f"the pool of {POOL} was not shared")
        return problems


class Standby:
    """The run's replica (tests/replica.py), watched: its lag twice a second all through
    the run (as the primary sees it: pg_stat_replication), and the statements it answered
    for each page read (its statement log). Does nothing without a replica."""

    def __init__(self, pair: StreamingReplica | None) -> None:
        self.pair = pair
        self.lags: list[float] = []  # seconds of replay lag, at each look
        self.behind: list[int] = []  # bytes of WAL not yet replayed, at each look
        self.last_move = 0.0  # when the last move was answered (time.monotonic)
        self.right_after: dict[str, int] = {}  # page -> statements the standby answered
        self.stopped = threading.Event()
        if pair is not None:
            threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        assert self.pair is not None
        while not self.stopped.wait(0.5):
            with contextlib.suppress(Exception):  # a look at a busy moment may fail: next
                seconds, behind = self.pair.lag()
                if seconds is not None:
                    self.lags.append(seconds)
                self.behind.append(behind)

    def stop(self) -> None:
        self.stopped.set()

    def read(self, url: str) -> int:
        """GET `url` (a page or the JSON API): the statements the standby answered for it."""
        assert self.pair is not None
        offset = self.pair.log_size()
        with urllib.request.urlopen(url, timeout=30) as answer:
            if answer.status != 200:
                raise SystemExit(f"{url}: {answer.status}")
            answer.read()
        return self.pair.statements_since(offset)

    def moved(self, site: str, secret: str, *, finished: bool) -> None:
        """After a move: the first time one ends its game, its mover's pages read at once
        on `site` (the other node), each with the number of statements the standby
        answered (read-your-writes: none)."""
        self.last_move = time.monotonic()
        if self.pair is None or not finished or self.right_after:
            return
        for page in (f"/play/{secret}/", f"/play/{secret}/replay/",
                     f"/api/play/{secret}/record"):
            self.right_after[page.replace(secret, "<seat>")] = self.read(site + page)

    def pages(self, sites: list[str], links: list[list[str]]) -> list[str]:
        """The finished games' pages and the public lists, once the window after the last
        move has passed: each must be read from the standby. The problems found."""
        if self.pair is None:
            return []
        from django.conf import settings

        problems = [f"right after the game's last move, {page} was read from the standby "
                    f"({count} statements)" for page, count in self.right_after.items() if count]
        if not self.right_after:
            problems.append("no page was read right after a game's last move")
        print(f"==> right after a game's last move, its mover's seat page, replay and record "
              f"(on the other node): {sum(self.right_after.values())} statements answered by "
              f"the standby, all read from the primary")
        # Deliberate: the marks of the last moves live REPLICA_READ_YOUR_WRITES_SECONDS.
        window = settings.REPLICA_READ_YOUR_WRITES_SECONDS + 0.5
        time.sleep(max(0.0, self.last_move + window - time.monotonic()))
        paths = [page for seats in links for page in (
            f"/play/{seats[0]}/", f"/play/{seats[1]}/replay/", f"/api/play/{seats[2]}/record")]
        paths += ["/ratings/", "/api/ratings/?ruleset=base", "/tables/", "/api/tables/"]
        counts = [self.read(sites[n % 2] + path) for n, path in enumerate(paths)]
        served = sum(1 for count in counts if count)
        print(f"==> {served} of {len(paths)} page reads of finished and public data served "
              f"by the standby ({sum(counts)} statements; every game's finished seat page, "
              f"replay and record, the ratings and tables lists, on both nodes)")
        if served != len(paths):
            problems += [f"{re.sub(r'/[A-Za-z0-9_-]{43}/', '/<seat>/', path)} was not read "
                         "from the standby" for path, count in zip(paths, counts, strict=True)
                         if not count]
        return problems

    def report(self) -> None:
        if self.pair is None or not self.lags:
            return
        ordered = sorted(self.lags)
        print(f"==> the standby's replay lag over {len(ordered)} looks: median "
              f"{ordered[len(ordered) // 2] * 1000:.1f} ms, 95th percentile "
              f"{ordered[int(len(ordered) * 0.95)] * 1000:.1f} ms, most {ordered[-1] * 1000:.1f} "
              f"ms; at most {max(self.behind) / 1024:.0f} KB of WAL not yet replayed")


def play_through(pool: Pool, brokers: Brokers, standby: Standby) -> int:
    from aiosmtpd.controller import Controller

    database = pool.database
    web_port, second_port, smtp_port = free_port(), free_port(), free_port()
    mailbox = Mailbox()
    smtp = Controller(mailbox, hostname="127.0.0.1", port=smtp_port)
    smtp.start()
    env = {
        **os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(40),
        "LINK_KEY": secrets.token_urlsafe(40),
        "DATABASE_URL": pool.bouncer.url(database), "DATABASE_POOLER": "pgbouncer",
        "CELERY_BROKER_URL": brokers.broker_url(), "CACHE_URL": brokers.cache.url(1),
        "EMAIL_PROVIDER": "smtp", "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp_port),
        # A send gives up after 3 s, so a claim older than 3 + 2 s is a dead worker's:
        # the beat's sweep (every SWEEP_SECONDS) sends it again seconds after the kill.
        "EMAIL_USE_TLS": "0", "EMAIL_TIMEOUT": "3", "EMAIL_STUCK_MARGIN_SECONDS": "2",
        "EMAIL_UNSENT_AFTER_SECONDS": "3", "SWEEP_SECONDS": "1",
        # A refused email is tried again 2 s later: a countdown the broker keeps (RabbitMQ:
        # native delayed delivery) or the worker does (Redis).
        "EMAIL_RETRY_SECONDS": "2",
        "SITE_URL": f"http://127.0.0.1:{web_port}", "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0", "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0", "GUNICORN_BIND": f"127.0.0.1:{web_port}",
        "WEB_CONCURRENCY": "2", "GUNICORN_ACCESS_LOG": "/dev/null", "PYTHONUNBUFFERED": "1",
        "CELERY_BEAT_SCHEDULE_FILENAME": f"/tmp/{database}-beat",
        # The standby, read directly (PgBouncer stands before the primary only).
        **({"DATABASE_REPLICA_URL": standby.pair.standby_url(database)}
           if standby.pair is not None else {}),
    }
    os.environ.update(env)
    setup_django()  # this process reads the rows (the kill, the checks) with these settings
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd: a line per command
    began = time.monotonic()
    procs: dict[str, subprocess.Popen[str]] = {}
    celery = [str(PYTHON), "-m", "celery", "-A", "saboteur_site"]
    # A worker per queue, as deploy/saboteur-worker-<queue>.service runs them (two for
    # mail); the sweeps' worker takes the digests and inbound mail too.
    workers = {name: [*celery, "worker", "--loglevel", "INFO", "--concurrency", str(procs_),
                      "--queues", queues, "-n", f"topology-{os.getpid()}-{name}@%h",
                      "--without-mingle", "--without-gossip"]
               for name, queues, procs_ in [("mail1", "mail", 2), ("mail2", "mail", 2),
                                            ("sweeps", "sweeps,digests,inbound", 1),
                                            ("bots", "bots", 1)]}
    kill = Kill()
    try:
        admin_sql(f"CREATE DATABASE {database}")
        subprocess.run([str(PYTHON), "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT,
                       env=env, check=True)
        # As on each web machine (docs/operations.md "Production"): the pages name their
        # CSS through the manifest (DEBUG off), which the replica's page reads need.
        subprocess.run([str(PYTHON), "manage.py", "collectstatic", "--noinput", "--verbosity",
                        "0"], cwd=ROOT, env=env, check=True)
        gunicorn = [str(PYTHON), "-m", "gunicorn", "-c", "gunicorn.conf.py", "saboteur_site.wsgi"]
        procs["web"] = start("gunicorn", gunicorn, env, "Listening at")
        procs["web2"] = start("gunicorn", gunicorn,
                              {**env, "GUNICORN_BIND": f"127.0.0.1:{second_port}"},
                              "Listening at")
        for name, argv in workers.items():
            procs[name] = start(name, argv, env, "ready.")
        procs["beat"] = start("beat", [*celery, "beat", "--loglevel", "INFO"], env,
                              "beat: Starting")
        links = []
        for number in range(GAMES):
            subprocess.run(
                [str(PYTHON), "manage.py", "creategame", "--name", f"Topology {number}",
                 "--seed", str(SEED + number), "--start",
                 *[arg for n in range(PLAYERS)
                   for arg in ("--player", f"P{n} <p{number}{n}@x.org>")]],
                cwd=ROOT, env=env, check=True, capture_output=True, text=True)
            # creategame prints invitation links (the host's); players play from their own
            links.append(own_links(mailbox, number))
        total = sum(predicted_moves(SEED + number) for number in range(GAMES))
        # The links (SITE_URL) name the first node; the moves go to both in turn.
        sites = [env["SITE_URL"], f"http://127.0.0.1:{second_port}"]
        nodes = [site + "/api/play/" for site in sites]
        moves = 0
        playing = set(range(GAMES))
        away_from = 0  # the move after which the broker was stopped (0: not yet)

        def play(number: int) -> bool:
            """One move in game `number`, on the next node; False when the game is over."""
            base = nodes[moves % 2]
            seat_of = dict(enumerate(links[number]))
            state = api(base, f"{seat_of[0]}/")
            if state["view"]["finished"]:
                return False
            actor = state["view"]["actor"]
            mine = api(base, f"{seat_of[actor]}/")
            move = mine["legal_moves"][-1]  # passes mostly: quick, deterministic games
            moved = api(base, f"{seat_of[actor]}/moves",
                        {"version": mine["version"], "move": move})
            standby.moved(sites[(moves + 1) % 2], seat_of[actor],
                          finished=bool(moved["view"]["finished"]))
            return True

        while playing:
            for number in sorted(playing):
                arm = moves + 1 >= total // 2 and not kill.at
                if arm:  # every earlier email out, so the next one is this move's
                    if not wait_until(mailbox, no_open_rows, WAIT):
                        raise SystemExit("emails still unsent before the kill")
                    with mailbox.changed:
                        mailbox.hold_armed = True
                if not play(number):
                    playing.discard(number)
                    mailbox.hold_armed = False
                    continue
                moves += 1
                if moves % 10 == 0:
                    pool.look()
                if arm and kill_mid_send(mailbox, procs, workers, env, kill):
                    kill.after_moves = moves
                if not away_from and kill.at and moves >= 3 * total // 4:
                    away_from = moves  # moves go on; their emails wait in the outbox
                    brokers.stop()
                    print(f"==> the broker ({brokers.kind}) stopped after move {moves}")
                elif brokers.stopped_at and moves >= away_from + BROKER_AWAY_MOVES:
                    brokers.start_again()
        if brokers.stopped_at:  # the games ended while it was away
            brokers.start_again()
        print(f"==> {GAMES} games played to the end ({moves} moves, {total} predicted; "
              f"the workers were killed after move {kill.after_moves}, the broker stopped "
              f"after move {away_from} for {brokers.away:.1f} s)")
        if not kill.at or not away_from:
            print("FAILED: no worker was ever killed mid-send, or the broker never stopped")
            return 1
        result = check(mailbox, kill)
        for problem in standby.pages(sites, links):
            print("FAILED:", problem)
            result = 1
        problems = flood(mailbox, env, procs, brokers, nodes[0])
        for problem in problems:
            print("FAILED:", problem)
            result = 1
        for problem in pool.check():
            print("FAILED:", problem)
            result = 1
        standby.report()
        print(f"==> {time.monotonic() - began:.0f} s in all")
        return result
    finally:
        mailbox.release.set()  # a held session's thread must not outlive the server
        for proc in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs.values():
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        smtp.stop()
        from django.db import connections
        connections.close_all()
        admin_sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        for state_file in Path("/tmp").glob(f"{database}-beat*"):  # the beat's shelve
            state_file.unlink(missing_ok=True)



def queue_depth(name: str) -> int:
    """Messages waiting in the broker's queue `name` (not those a worker holds)."""
    from celery import current_app

    with current_app.connection_for_read() as connection:
        try:
            return int(connection.default_channel.queue_declare(
                queue=name, passive=True).message_count)
        except Exception:  # Redis: an empty queue is no key at all, so "not found"
            return 0


def probe_move(mailbox: Mailbox, base: str, links: list[str], *,
               refuse: bool = False) -> tuple[float, int]:
    """One move in the probe game: the seconds until the email of the seat to act next
    arrives (its turn email), and the bot moves still waiting in the `bots` queue then.
    `refuse`: the SMTP server answers that email's first attempt with a 451, so it
    arrives on the send task's retry (a countdown of EMAIL_RETRY_SECONDS)."""
    seat_of = dict(enumerate(links))
    actor = api(base, f"{seat_of[0]}/")["view"]["actor"]
    mine = api(base, f"{seat_of[actor]}/")
    with mailbox.changed:
        seen = len(mailbox.deliveries)
        mailbox.refuse_armed, mailbox.refused = refuse, None
    began = time.monotonic()
    api(base, f"{seat_of[actor]}/moves", {"version": mine["version"],
                                          "move": mine["legal_moves"][-1]})
    address = f"p{GAMES}{api(base, f'{seat_of[0]}/')['view']['actor']}@x.org"

    def arrival() -> float | None:
        return next((at for at, to in mailbox.deliveries[seen:] if to == address), None)

    with mailbox.changed:
        if not mailbox.changed.wait_for(lambda: arrival() is not None, timeout=WAIT):
            raise SystemExit(f"the probe game's turn email to {address} did not arrive")
        mailbox.refuse_armed = False
        lag = (arrival() or began) - began
    return lag, queue_depth("bots")


def bot_games(count: int) -> list[tuple[int, int]]:
    """`count` games of three bots, started: (game id, version) of each bot's first turn."""
    from games.setup.services import game_setup

    turns = []
    for n in range(count):
        created = game_setup.create_game(
            name=f"Flood {n}", players=[game_setup.bot_player(f"Bot{i}") for i in range(3)],
            seed=SEED + 1000 + n, start=True, invite=False)
        turns.append((created.game.pk, created.game.version))
    return turns


def flood(mailbox: Mailbox, env: dict[str, str], procs: dict[str, subprocess.Popen[str]],
          brokers: Brokers, base: str) -> list[str]:
    """Queues by kind: a probe game of three people; its turn emails' usual time (after
    one refused first attempt, retried on a countdown); then FLOOD bot moves queued at
    once (the bots' worker stopped while they are queued, then let go) and the probe's
    next turn email timed again: it leaves within its usual time, while most of the bot
    moves still wait in their queue. Every probe email arrives once."""
    from games.game.core.game import Game
    from games.mail.core.notifications import Notification
    from games.moves.services.moves import play_bot_turn

    subprocess.run(
        [str(PYTHON), "manage.py", "creategame", "--name", "Topology probe",
         "--seed", str(SEED + GAMES), "--start",
         *[arg for n in range(PLAYERS) for arg in ("--player", f"P{n} <p{GAMES}{n}@x.org>")]],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    links = own_links(mailbox, GAMES)
    problems = []
    retried, _depth = probe_move(mailbox, base, links, refuse=True)
    print(f"==> a turn email refused (451) on its first attempt arrived {retried:.1f} s "
          f"after the move, on the send task's retry ({brokers.kind}"
          f"{': native delayed delivery' if brokers.kind == 'rabbitmq' else ''})")
    if not mailbox.refused:
        problems.append("no email was refused: the retry was not exercised")
    usual = max(probe_move(mailbox, base, links)[0] for _ in range(3))
    os.killpg(procs["bots"].pid, signal.SIGSTOP)  # the flood waits in its queue
    try:
        began = time.monotonic()
        turns = bot_games(FLOOD)
        for game_id, version in turns:
            play_bot_turn.delay(game_id, version)
        queued = queue_depth("bots")
        # Each game's start queued its first bot move too (after BOT_MOVE_DELAY_SECONDS):
        # the second message of a turn finds it played and does nothing.
        print(f"==> {len(turns)} games of bots made and their first moves queued: {queued} "
              f"messages waiting in `bots` ({time.monotonic() - began:.0f} s)")
    finally:
        os.killpg(procs["bots"].pid, signal.SIGCONT)
    if queued < FLOOD:
        problems.append(f"only {queued} bot moves queued, not {FLOOD}")
    lag, waiting = probe_move(mailbox, base, links)
    bound = 2 * usual + 1.0
    print(f"==> with {queued} bot moves queued: the turn email arrived {lag:.1f} s after "
          f"the move (usual: at most {usual:.1f} s; bound {bound:.1f} s), {waiting} bot "
          f"moves still waiting then")
    if lag > bound:
        problems.append(f"the turn email took {lag:.1f} s behind the bot moves, not at most "
                        f"{bound:.1f} s")
    if waiting < FLOOD // 2:
        problems.append(f"only {waiting} bot moves still waited when the email arrived: "
                        "the flood was not in the way")
    probe = Game.objects.get(name="Topology probe")

    def settled() -> bool:
        open_rows = Notification.objects.filter(game=probe).exclude(
            status__in=[Notification.Status.SENT, Notification.Status.SKIPPED])
        return not open_rows.exists()

    if not wait_until(mailbox, settled, WAIT):
        problems.append("the probe game's emails were not all sent")
    received = Counter(mailbox.ids)
    for note in Notification.objects.filter(game=probe, status=Notification.Status.SENT):
        times = sum(n for mid, n in received.items() if mid.startswith(f"<saboteur.{note.pk}."))
        if times != 1:
            problems.append(f"probe notification {note.pk} ({note.kind}) arrived {times} times")
    played = Game.objects.filter(name__startswith="Flood ", version__gt=0).count()
    print(f"==> {played} of the {FLOOD} bot games had moved by the end")
    return problems


def check(mailbox: Mailbox, kill: Kill) -> int:
    from games import engine
    from games.game.core.game import Game, Move
    from games.mail.core.notifications import Notification
    from games.mail.services import plan

    Kind = Notification.Kind
    wanted = (Kind.INVITATION, Kind.ROUND_END, Kind.GAME_END)

    def settled() -> bool:
        sent = Notification.objects.filter(status=Notification.Status.SENT).count()
        return no_open_rows() and len(set(mailbox.ids)) >= sent

    if not wait_until(mailbox, settled, WAIT):
        print("FAILED: emails still unsent after the wait")
        return 1
    problems = []
    received = Counter(mailbox.ids)
    held = Notification.objects.get(pk=kill.note_id)
    if held.status != Notification.Status.SENT or held.attempts != 2:
        problems.append(f"the held email (notification {held.pk}) is {held.status} after "
                        f"{held.attempts} attempts, not sent on the second")
    if received[kill.message_id] != 1:
        problems.append(f"the held email arrived {received[kill.message_id]} times")
    for game in Game.objects.all():
        moves = list(Move.objects.filter(game=game).order_by("number")
                     .values_list("move", flat=True))
        replayed = engine.replay(game.seats.count(), game.seed, moves, game.ruleset,
                                 game.options)
        if replayed.to_json() != game.state().to_json():
            problems.append(f"{game.name}: the replay differs from the snapshot")
        if game.status != Game.Status.FINISHED:
            problems.append(f"{game.name}: not finished")
    for note in Notification.objects.filter(kind__in=wanted):
        ids = [mid for mid in received if mid.startswith(f"<saboteur.{note.pk}.")]
        times = sum(received[mid] for mid in ids)
        if times != 1:
            problems.append(f"notification {note.pk} ({note.kind}, {note.to_email}) arrived "
                            f"{times} times")
    for game in Game.objects.all():
        # The rounds that ended before the game's end: the last round_end comes with the
        # game end and is told in the game-end email (games/mail/services/plan.py, results()).
        ended = [event["round"] for event in game.full_log() if event["type"] == "round_end"]
        before_end = ended[:-1] if game.status == Game.Status.FINISHED else ended
        if len(ended) != engine.rules_for(game.ruleset).rounds:
            problems.append(f"{game.name}: {len(ended)} rounds ended")
        for seat in game.seats.all():
            for kind in wanted:
                rows = Notification.objects.filter(seat=seat, kind=kind)
                if kind == Kind.ROUND_END:
                    got = sorted(row.params.get("round") for row in rows)
                    expected = before_end if plan.wants(seat, kind) else []
                    if got != expected:
                        problems.append(f"{game.name} seat {seat.number}: round-end emails for "
                                        f"rounds {got}, not {expected}")
                elif rows.count() != 1:
                    problems.append(f"{game.name} seat {seat.number}: {rows.count()} {kind} "
                                    "emails")
    unsent = Notification.objects.exclude(status=Notification.Status.SENT).exclude(
        status=Notification.Status.SKIPPED).count()
    if unsent:
        problems.append(f"{unsent} emails not sent")
    for problem in problems:
        print("FAILED:", problem)
    print(f"==> {len(received)} emails over SMTP; {'all checks passed' if not problems else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
