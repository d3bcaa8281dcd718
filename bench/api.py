"""Moves per second through the JSON API against a bare view, early and late in games.

    python bench/api.py                   # PostgreSQL on 127.0.0.1:5432 (user postgres),
                                          # a throwaway database, dropped at the end
    python bench/api.py --min-ratio 0.8   # exit 1 when a ratio is below 0.8
    python bench/api.py --games 1000000   # with a million idle games (3 seats each) in the
                                          # tables, and as many rows in the bare view's
    python bench/api.py --sql             # also list the SQL statements of one API move
    python bench/api.py --cpu             # also the CPU ms per move of gunicorn,
                                          # PostgreSQL and the client (Linux)

One gunicorn (gunicorn.conf.py as shipped, access log to /dev/null, DEBUG=0) serves both
- the real thing: POST /api/play/<secret>/moves {"version": V, "move": {...}}, answered
  with the new version, the seat's view (its whole log included) and its legal moves;
  the move's emails go to the after-move outbox (a row written with the move) and any
  task a move publishes (none, unless a bot is next) goes to Redis database 14 when Redis
  answers on 127.0.0.1:6379, in a queue of the bench's own that is deleted at the end,
  else to kombu's in-memory transport;
- the bare view (bench/api_urls.py): the minimum a move needs, i.e. lock a row, a
  conditional UPDATE of a ~20 KB JSON (a real game's full state), insert one log row,
through the same middleware (settings: bench/api_settings.py). THREADS client threads
each keep one http.client connection (reopened whenever gunicorn's sync workers close
it) and play their own 4-seat games, always with the link of the seat whose turn it is;
the moves were worked out beforehand with games.engine, so the client does no rules work,
and it reads every answer whole with orjson: it shares the CPUs with the server it
measures, and json.loads of a late game's 20 KB answer took it 0.17 ms a move.

A second gunicorn on the ORM reference store (MOVE_STORE=orm, games.moves.services.move_store) is
measured the same way beside them, on games of its own (`--no-orm` skips it): its ratio
says what the fast store (games.moves.services.fast_move_store) is worth.

Early positions are the first WINDOW moves of new games; late positions the last WINDOW
moves of games first played up to there through the same API (untimed). At each stage
the two are measured alternately (real, bare, real, bare: PAIRS pairs of SECONDS each,
after a short untimed warm-up of both), and the ratio real/bare is printed per stage.
Target: at least 0.8 at both stages.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import json
import math
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from games.engine import Move

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.pgbouncer import PgBouncer  # noqa: E402 (found through the path just set)

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_DB = 14
SEATS = 4
# The bare view's table (bench/api_urls.py) and its log.
TABLES = [
    "CREATE TABLE bench_bare (id integer PRIMARY KEY, version integer NOT NULL, "
    "data jsonb NOT NULL)",
    "CREATE TABLE bench_bare_log (id bigserial PRIMARY KEY, row_id integer NOT NULL, "
    "number integer NOT NULL, move jsonb NOT NULL, created_at timestamptz NOT NULL)",
]
HEADERS = {"Content-Type": "application/json", "X-Forwarded-Proto": "https"}


class BenchError(Exception):
    pass


# The gunicorn master's pid, when --cpu asks where the time goes.
SERVER_PID: list[int] = []


# ---- the games, worked out beforehand ----------------------------------------------------


def choose(legal: list[Move], rng: random.Random) -> Move:
    """Mostly dig east (tests/support.py's policy), sometimes anything."""
    places = [m for m in legal if m["type"] == "place"]
    if places and rng.random() < 0.7:
        best = max(m["x"] for m in places)
        return rng.choice([m for m in places if m["x"] == best])
    return rng.choice(legal)


@dataclass
class Played:
    """One game as a client plays it: the seats' tokens and every move of the game."""
    tokens: dict[int, str]
    plan: list[tuple[int, Move]]  # (seat to act, move) for versions 0, 1, ...
    version: int = 0
    end: int = 0  # the stage stops using this game at this version

    def url(self) -> str:
        return f"/api/play/{self.tokens[self.plan[self.version][0]]}/moves"


def make_games(count: int, seeds: Iterator[int]) -> list[Played]:
    from games import engine
    from games.seats.core.links import link_for
    from games.setup.services import game_setup

    games = []
    for seed in itertools.islice(seeds, count):
        created = game_setup.create_game(
            name=f"Bench {seed}", start=True, seed=seed,
            players=[game_setup.PlayerSpec(name=f"P{i}", email=f"p{i}.{seed}@example.com")
                     for i in range(SEATS)])
        game = created.game
        tokens = {seat.number: link_for(seat).rstrip("/").rsplit("/", 1)[-1]
                  for seat, _ in created.seats}
        state = engine.new_game(SEATS, game.seed, game.ruleset, game.options)
        rng = random.Random(game.seed)
        plan = []
        while not state.finished:
            assert state.actor is not None
            move = choose(engine.legal_moves(state), rng)
            plan.append((state.actor, move))
            state = engine.apply(state, move)
        games.append(Played(tokens, plan))
    return games


def bare_document() -> dict[str, Any]:
    """A real game's whole state with its log (about 20 KB of JSON), for the bare view."""
    from games import engine

    state, rng = engine.new_game(SEATS, 7), random.Random(7)
    while len(json.dumps(state.to_json())) < 20_000 and not state.finished:
        state = engine.apply(state, choose(engine.legal_moves(state), rng))
    return {"version": 0, "state": state.to_json()}


# ---- the client threads ------------------------------------------------------------------


# What a batch measures: the API (real moves), the bare view, the API on the ORM reference
# store, and (--pgbouncer) the API and the bare view through PgBouncer.
API_KINDS = ("real", "orm", "pgbouncer")
BARE_KINDS = ("bare", "pgbouncer bare")


@dataclass
class Client:
    ports: dict[str, int]  # the server each kind goes to
    row: int  # the bare view's row of this client
    pools: dict[str, deque[Played]] = field(default_factory=dict)
    bare_version: int = 0
    conns: dict[int, http.client.HTTPConnection] = field(default_factory=dict)

    def post(self, url: str, version: int, move: Move, port: int = 0) -> None:
        port = port or self.ports["real"]
        if port not in self.conns:
            self.conns[port] = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn = self.conns[port]
        body = orjson.dumps({"version": version, "move": move})
        try:
            conn.request("POST", url, body, HEADERS)
            response = conn.getresponse()
            data = response.read()
        except (ConnectionError, http.client.HTTPException):
            conn.close()  # a worker recycled (max_requests): once more, afresh
            conn.request("POST", url, body, HEADERS)
            response = conn.getresponse()
            data = response.read()
        if response.will_close:
            conn.close()  # reopened by the next request
        answer = orjson.loads(data) if data else {}
        api = url.startswith("/api/")
        if (response.status != 200 or answer.get("version") != version + 1
                or (api and "legal_moves" not in answer)):
            raise BenchError(f"{'API' if api else 'bare view'} answered {response.status} "
                             f"at version {version}: {data[:300]!r}")

    def step(self, kind: str, stage: str) -> bool:
        """One move of `kind`; False when this client ran out of games for it."""
        if kind in BARE_KINDS:
            return self.bare(self.ports[kind])
        return self._api(pool_of(stage, kind), self.ports[kind])

    def _api(self, pool_name: str, port: int) -> bool:
        pool = self.pools[pool_name]
        while pool and pool[0].version >= pool[0].end:
            pool.popleft()
        if not pool:
            return False
        game = pool[0]
        self.post(game.url(), game.version, game.plan[game.version][1], port)
        game.version += 1
        return True

    def bare(self, port: int) -> bool:
        """A move of the bare view (one row per client, whichever server serves it)."""
        self.post(f"/bench/bare/{self.row}/moves", self.bare_version,
                  {"type": "pass", "card": "p01"}, port)
        self.bare_version += 1
        return True

    def advance(self, games: list[Played], to: Callable[[Played], int]) -> None:
        for game in games:
            while game.version < to(game):
                self.post(game.url(), game.version, game.plan[game.version][1])
                game.version += 1


def pool_of(stage: str, kind: str) -> str:
    """The games a kind of API move plays at a stage: each server on games of its own."""
    return stage if kind == "real" else f"{stage}/{kind}"


def in_threads(clients: list[Client], work: Callable[[Client], object]) -> float:
    """Run `work` for every client in a thread of its own; the wall time it took."""
    errors: list[BaseException] = []

    def run(client: Client) -> None:
        try:
            work(client)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return time.perf_counter() - started


def cpu_seconds(server_pid: int | None) -> dict[str, float]:
    """CPU seconds used so far (Linux /proc) by gunicorn (master and workers), by every
    PostgreSQL process, and by this client: where a move's time goes (--cpu)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {"gunicorn": 0.0, "postgres": 0.0, "client": 0.0}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        # Its own time and that of its children that have exited (a recycled gunicorn
        # worker, a closed PostgreSQL backend): what a group used stays counted.
        seconds = sum(int(value) for value in fields[11:15]) / tick
        pid, parent = int(entry.name), int(fields[1])
        if server_pid is not None and server_pid in (pid, parent):
            used["gunicorn"] += seconds
        elif name.startswith("postgres"):
            used["postgres"] += seconds
        elif pid == os.getpid():
            used["client"] += seconds
    return used


@dataclass
class Batch:
    moves: int
    seconds: float
    ran_out: bool
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by process group

    @property
    def rate(self) -> float:
        return self.moves / self.seconds


def batch(clients: list[Client], kind: str, stage: str, seconds: float) -> Batch:
    """Every client plays `kind` moves for `seconds`; all stop when one runs out of games."""
    counts = [0] * len(clients)
    ran_out = threading.Event()
    deadline = time.perf_counter() + seconds

    def play(client: Client) -> None:
        i = clients.index(client)
        while time.perf_counter() < deadline and not ran_out.is_set():
            if not client.step(kind, stage):
                ran_out.set()
                return
            counts[i] += 1

    before = cpu_seconds(SERVER_PID[0]) if SERVER_PID else {}
    took = in_threads(clients, play)
    after = cpu_seconds(SERVER_PID[0]) if SERVER_PID else {}
    return Batch(sum(counts), took, ran_out.is_set(),
                 {k: after[k] - before[k] for k in after})


# ---- the server --------------------------------------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_gunicorn(port: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    env = {**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_ACCESS_LOG": "/dev/null",
           "GUNICORN_ERROR_LOG": "-"}
    with Path(log).open("ab") as output:  # gunicorn's error log and Django's console log
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "saboteur_site.wsgi"],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=output, stderr=output,
            start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError(f"gunicorn exited ({proc.returncode}); its log:\n{tail(log)}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", "/bench/bare/0/moves", headers=HEADERS)
            status = conn.getresponse().status
            conn.close()
            if status == 405:
                return proc
            raise BenchError(f"gunicorn answered {status}; its log:\n{tail(log)}")
        except ConnectionError:
            time.sleep(0.2)
    raise BenchError(f"gunicorn did not answer within 60 s; its log:\n{tail(log)}")


def stop_gunicorn(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def tail(log: Path, lines: int = 30) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB,
                                socket_timeout=2, socket_connect_timeout=2).ping())
    except Exception:
        return False


def forget_queue(queue: str) -> None:
    import redis

    r = redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB)
    print(f"tasks the moves published to Redis: {r.llen(queue)} (now deleted)")
    for key in list(r.scan_iter(match=f"*{queue}*")):
        r.delete(key)


# ---- the SQL of one move -----------------------------------------------------------------


def sql_of_one_move(game: Played, *, show: bool) -> int:
    """Play the game's next move through the API in this process (django.test.Client),
    counting (and with `show` listing) the SQL statements, the after-commit work included."""
    from django.db import connection
    from django.test import Client as DjangoClient
    from django.test.utils import CaptureQueriesContext

    client = DjangoClient(headers={"X-Forwarded-Proto": "https", "Host": "127.0.0.1"})
    body = json.dumps({"version": game.version, "move": game.plan[game.version][1]})
    with CaptureQueriesContext(connection) as captured:
        response = client.post(game.url(), body, content_type="application/json")
    if response.status_code != 200:
        raise BenchError(f"the in-process move answered {response.status_code}")
    game.version += 1
    if show:
        print(f"SQL statements of one API move (version {game.version - 1} -> "
              f"{game.version}):")
        for n, query in enumerate(captured.captured_queries, 1):
            sql = " ".join(query["sql"].split())
            print(f"  {n:>2}. {sql[:160]}{' ...' if len(sql) > 160 else ''}")
    return len(captured.captured_queries)


# ---- the run -----------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=4, help="client threads")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one batch")
    parser.add_argument("--pairs", type=int, default=5,
                        help="(real, bare) batch pairs per stage")
    parser.add_argument("--warmup", type=float, default=1.0,
                        help="untimed seconds of each kind before a stage")
    parser.add_argument("--window", type=int, default=60,
                        help="moves a game serves in a stage: its first or its last WINDOW")
    parser.add_argument("--max-games", type=int, default=300,
                        help="at most this many games per stage (sized from the measured "
                             "rate; a batch ends early when the clients run out)")
    parser.add_argument("--min-ratio", type=float, default=None,
                        help="exit 1 when a stage's real/bare ratio is below this")
    parser.add_argument("--games", type=int, default=0,
                        help="idle active games (3 seats each) in the tables first, and as many "
                             "rows in the bare view's table (bench/idle_games.py)")
    parser.add_argument("--sql", action="store_true",
                        help="list the SQL statements of one API move")
    parser.add_argument("--no-orm", dest="orm", action="store_false",
                        help="skip the second server on the ORM reference store (MOVE_STORE=orm)")
    parser.add_argument("--pgbouncer", action="store_true",
                        help="also the API and the bare view through PgBouncer (transaction "
                             "pooling, /usr/sbin/pgbouncer: tests/pgbouncer.py)")
    parser.add_argument("--cpu", action="store_true",
                        help="also print the CPU milliseconds per move of gunicorn, "
                             "PostgreSQL and this client (Linux)")
    args = parser.parse_args()

    pid = os.getpid()
    name = f"saboteur_bench_api_{pid}"
    queue = f"bench_api_{pid}"
    use_redis = redis_answers()
    broker = f"redis://127.0.0.1:6379/{REDIS_DB}" if use_redis else "memory://localhost/"
    import psycopg

    # SIGTERM unwinds like Ctrl-C, through the `finally` that drops the database.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    server: list[subprocess.Popen[bytes]] = []
    log = ROOT / "var" / f"bench-api-{pid}.log"
    log.parent.mkdir(exist_ok=True)
    bouncer = contextlib.ExitStack()
    try:
        pooler = bouncer.enter_context(PgBouncer.started()) if args.pgbouncer else None
        ratios = run(args, name, queue, broker, log, server, pooler)
    finally:
        for proc in server:
            stop_gunicorn(proc)
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        bouncer.close()
        if use_redis:
            forget_queue(queue)
        errors = [line for line in tail(log, 10**6).splitlines()
                  if "Traceback" in line or "[ERROR]" in line]
        if errors:
            print(f"gunicorn logged {len(errors)} errors, e.g. {errors[0][:200]}")
        log.unlink(missing_ok=True)
    if args.min_ratio is not None and min(ratios.values()) < args.min_ratio:
        print(f"below --min-ratio {args.min_ratio}")
        sys.exit(1)


def run(args: argparse.Namespace, name: str, queue: str, broker: str, log: Path,
        server: list[subprocess.Popen[bytes]], bouncer: PgBouncer | None) -> dict[str, float]:
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "bench.api_settings",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{name}",
        "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(32),
        "LINK_KEY": secrets.token_urlsafe(32), "ALLOWED_HOSTS": "127.0.0.1",
        "BEHIND_HTTPS_PROXY": "1", "SITE_URL": "https://127.0.0.1",
        "BENCH_CELERY_QUEUE": queue,
        # The setup in this process publishes to memory; gunicorn to `broker`.
        "CELERY_BROKER_URL": "memory://localhost/", "CELERY_TASK_ALWAYS_EAGER": "0",
    })
    os.environ.pop("SENTRY_DSN", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, connections

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    document = json.dumps(bare_document())
    with connection.cursor() as cursor:
        for sql in TABLES:
            cursor.execute(sql)
        for row in range(args.threads):
            cursor.execute("INSERT INTO bench_bare (id, version, data) VALUES (%s, 0, %s)",
                           [row, document])
    if args.games:
        fill_tables(args.games, args.threads)
    seeds = itertools.count(1000)
    [probe] = make_games(1, seeds)
    statements = sql_of_one_move(probe, show=args.sql)
    connections.close_all()
    print(f"postgresql: {name}, bare JSON {len(document) / 1000:.0f} KB, broker "
          f"{broker.split(':')[0]}, {args.threads} client threads, {SEATS}-seat games; "
          f"set up in {time.perf_counter() - started:.1f}s")

    port = free_port()
    server.append(start_gunicorn(port, {**os.environ, "CELERY_BROKER_URL": broker}, log))
    if args.cpu:
        SERVER_PID.append(server[0].pid)
    ports = {"real": port, "bare": port}
    if args.orm:  # the same server on the ORM reference store, beside it
        ports["orm"] = free_port()
        server.append(start_gunicorn(ports["orm"], {**os.environ, "CELERY_BROKER_URL": broker,
                                                    "MOVE_STORE": "orm"}, log))
    if bouncer is not None:  # the same server through PgBouncer: the API and the bare view
        ports["pgbouncer"] = ports["pgbouncer bare"] = free_port()
        server.append(start_gunicorn(ports["pgbouncer"], {
            **os.environ, "CELERY_BROKER_URL": broker, "DATABASE_URL": bouncer.url(name),
            "DATABASE_POOLER": "pgbouncer"}, log))
        print(f"through PgBouncer: {bouncer.version()}, transaction pooling")
    clients = [Client(ports, row) for row in range(args.threads)]
    kinds = tuple(kind for kind in (*API_KINDS, *BARE_KINDS) if kind in ports)
    timed = args.warmup + args.pairs * args.seconds

    def new_games(stage: str, rate: float, margin: float) -> list[Played]:
        """Enough games for a stage at `rate` moves/s (times `margin`), within --max-games."""
        count = math.ceil(rate * margin * timed / args.window)
        count = min(max(count, args.threads), args.max_games)
        games = make_games(count, seeds)
        connections.close_all()
        for i, client in enumerate(clients):
            client.pools[stage] = deque(games[i::args.threads])
        return games

    # The warm-up of gunicorn's workers (their first requests import and connect), then
    # a first guess of the rate, to size the stages.
    warm = new_games("calibrate", 0, 0) + new_games("guess", 0, 0)
    for kind in kinds:
        if kind in API_KINDS and kind != "real":
            warm += new_games(pool_of("calibrate", kind), 0, 0)
    for game in warm:
        game.end = min(args.window, len(game.plan))
    for kind in kinds:
        batch(clients, kind, "calibrate", max(args.warmup, 1.0))
    guess = batch(clients, "real", "guess", max(args.warmup, 1.0))

    results: dict[str, dict[str, list[Batch]]] = {}
    for stage in ("early", "late"):
        pools = [pool_of(stage, kind) for kind in kinds if kind in API_KINDS]
        if stage == "early":
            for pool in pools:
                games = new_games(pool, guess.rate, 3.0)
                for game in games:
                    game.end = min(args.window, len(game.plan))
        else:
            # Sized on the best early batch, twice over: the machine's noise goes both ways.
            rate = max(b.rate for b in results["early"]["real"])

            def late_start(game: Played) -> int:
                return max(len(game.plan) - args.window, min(args.window, len(game.plan)))

            for pool in pools:
                games = new_games(pool, rate, 2.0)
                for game in games:
                    game.end = len(game.plan)
                moves = sum(late_start(g) for g in games)
                def advance(client: Client, pool: str = pool) -> None:
                    client.advance(list(client.pools[pool]), late_start)

                took = in_threads(clients, advance)
                print(f"{len(games)} games played through the API to their last "
                      f"{args.window} moves: {moves} moves in {took:.1f}s "
                      f"({moves / took:.0f}/s, untimed)")
            games = list(itertools.chain.from_iterable(c.pools[stage] for c in clients))
        print(f"{stage}: {len(games)} games of {min(len(g.plan) for g in games)} to "
              f"{max(len(g.plan) for g in games)} moves, {args.window} moves of each")
        for kind in kinds:
            batch(clients, kind, stage, args.warmup)
        runs: dict[str, list[Batch]] = {kind: [] for kind in kinds}
        for _ in range(args.pairs):
            for kind in kinds:
                runs[kind].append(batch(clients, kind, stage, args.seconds))
        results[stage] = runs
    return report(results, statements)


def fill_tables(games: int, threads: int) -> None:
    """`games` idle games in the server's tables and as many small rows in the bare view's
    (the stub snapshot's size), so both are measured on tables of that size."""
    from django.db import connection
    from django.utils import timezone
    from idle_games import insert_idle_games

    insert_idle_games(games, timezone.now())
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_bare (id, version, data) SELECT n, 0, "
                       "'{\"bench\": true}'::jsonb FROM generate_series(%s, %s) AS n",
                       [threads, threads + games - 1])
        cursor.execute("ANALYZE bench_bare")
        cursor.execute("SELECT pg_total_relation_size('games_game'), "
                       "pg_total_relation_size('games_seat'), "
                       "pg_total_relation_size('bench_bare')")
        game_bytes, seat_bytes, bare_bytes = cursor.fetchone()
    print(f"tables: games_game {game_bytes / 2**20:,.0f} MiB, games_seat "
          f"{seat_bytes / 2**20:,.0f} MiB, bench_bare {bare_bytes / 2**20:,.0f} MiB "
          "(with indexes and TOAST)")


def report(results: dict[str, dict[str, list[Batch]]], statements: int) -> dict[str, float]:
    """Each kind's rate per stage, and the ratios: the API against the bare view (the
    target), the ORM store's, and through PgBouncer (the API against the bare view both
    through it, and against the direct bare view). The real/bare ratios, returned."""
    print(f"\n{'stage':<6} {'kind':<15} {'moves/s':>8}   batches (moves/s)")
    rates: dict[str, dict[str, float]] = {}
    for stage, runs in results.items():
        rates[stage] = {kind: sum(b.moves for b in batches) / sum(b.seconds for b in batches)
                        for kind, batches in runs.items()}
        for kind, batches in runs.items():
            print(f"{stage:<6} {kind:<15} {rates[stage][kind]:>8.1f}   "
                  + " ".join(f"{b.rate:.0f}" for b in batches))
        if all(b.cpu for batches in runs.values() for b in batches):
            for kind, batches in runs.items():
                moves = sum(b.moves for b in batches)
                per = {k: sum(b.cpu[k] for b in batches) / moves * 1000 for k in batches[0].cpu}
                print(f"  {kind} CPU ms per move: " + ", ".join(
                    f"{k} {v:.2f}" for k, v in per.items()) + f", all {sum(per.values()):.2f}")
        if any(b.ran_out for b in runs["real"]):
            print(f"  ({stage}: the clients ran out of games (--max-games), a batch ended early)")
    print(f"\nSQL statements per API move: {statements}")
    ratios = {stage: rate["real"] / rate["bare"] for stage, rate in rates.items()}
    for title, over, under in [
            ("ratios (real/bare)", "real", "bare"),
            ("ORM reference store (orm/bare)", "orm", "bare"),
            ("through PgBouncer (pgbouncer/pgbouncer bare)", "pgbouncer", "pgbouncer bare"),
            ("through PgBouncer against the direct bare view (pgbouncer/bare)", "pgbouncer",
             "bare")]:
        if all(over in rate for rate in rates.values()):
            print(f"{title}  " + "  ".join(f"{stage}: {rate[over] / rate[under]:.2f}"
                                           for stage, rate in rates.items()))
    return ratios


if __name__ == "__main__":
    main()
