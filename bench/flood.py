"""A flood on one seat must not slow the other seats of its game.

    python bench/flood.py            # PostgreSQL on 127.0.0.1:5432 (user postgres), a
                                     # throwaway database, dropped at the end
    python bench/flood.py --max-ratio 1.5   # exit 1 above it

One gunicorn (gunicorn.conf.py as shipped; rate limits counted in Redis database 12 when
Redis answers, as in production, with the API's limit lowered to 60 requests a minute per
link so that the flood is past it from its first second: bench/flood_settings.py) serves
4-seat games. A mover plays seats 0-2 of each game through the JSON API, one move at a
time, timing each; seat 3's turns are played through the services, untimed. Two runs:
first quiet, then with FLOODERS processes posting moves for the games' seat 3 at RATE
requests a second in all (a stale version: past the limit they are answered 429). It
prints the p50 and p95 of the mover's moves in each run and the ratio flooded/quiet of the
p95 (target: at most 1.5: no flooding request may take the game's row lock in turn with
the mover's moves; bench/README.md).
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import multiprocessing
import os
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from api import (  # noqa: E402  (bench/api.py: the same server harness)
    ADMIN,
    HEADERS,
    Played,
    free_port,
    make_games,
    redis_answers,
    stop_gunicorn,
    tail,
)

CACHE_DB = 12
FLOODED_SEAT = 3


def start_gunicorn(port: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    env = {**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_ACCESS_LOG": "/dev/null",
           "GUNICORN_ERROR_LOG": "-"}
    with Path(log).open("ab") as output:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "saboteur_site.wsgi"],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=output, stderr=output,
            start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited ({proc.returncode}); its log:\n{tail(log)}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", "/healthz", headers=HEADERS)
            conn.getresponse().read()
            conn.close()
            return proc
        except ConnectionError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer within 60 s; its log:\n{tail(log)}")


class Connection:
    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def post(self, url: str, body: bytes) -> tuple[int, bytes]:
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request("POST", url, body, HEADERS)
                response = self.conn.getresponse()
                data = response.read()
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
                continue
            if response.will_close:
                self.conn.close()
                self.conn = None
            return response.status, data
        raise AssertionError("unreachable")


def play_seat_three(game: Played, game_id: int) -> None:
    """Seat 3's move, made through the services (the flooder owns its link)."""
    from games.game.core.game import Game
    from games.moves.services import moves
    from games.seats.core.seat import Seat

    seat = Seat.objects.select_related("game").get(game_id=game_id, number=FLOODED_SEAT)
    moves.game_move_submit(actor=moves.BySeat(seat), version=game.version,
                           move=game.plan[game.version][1])
    game.version += 1
    assert Game.objects.get(pk=game_id).version == game.version


def mover(port: int, games: list[tuple[Played, int]], moves: int) -> list[float]:
    """Play seats 0-2 of the games through the API; the time of each of those moves."""
    conn, times = Connection(port), list[float]()
    for game, game_id in itertools.cycle(games):
        if len(times) >= moves:
            break
        if all(g.version >= len(g.plan) - 1 for g, _ in games):
            raise SystemExit(f"the games ran out of moves after {len(times)} timed moves: "
                             "raise --games with --moves")
        if game.version >= len(game.plan) - 1:
            continue
        seat, move = game.plan[game.version]
        if seat == FLOODED_SEAT:
            play_seat_three(game, game_id)
            continue
        body = orjson.dumps({"version": game.version, "move": move})
        started = time.perf_counter()
        status, data = conn.post(game.url(), body)
        times.append(time.perf_counter() - started)
        if status != 200:
            raise SystemExit(f"the mover's move answered {status}: {data[:200]!r}")
        game.version += 1
    return times


def flooder(port: int, urls: list[str], rate: float, stop: Any, counts: Any) -> None:
    """In a process of its own (no share of the mover's interpreter): post `rate` requests
    a second, round the urls, until `stop` is set; count the answers' statuses."""
    conn = Connection(port)
    body = orjson.dumps({"version": 0, "move": {"type": "pass", "card": "p01"}})
    started = time.monotonic()
    for sent, url in enumerate(itertools.cycle(urls)):
        if stop.is_set():
            return
        pause = started + sent / rate - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        status, _data = conn.post(url, body)
        with counts.get_lock():
            counts[0 if status == 429 else 1] += 1


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(args: argparse.Namespace, name: str, log: Path,
        server: list[subprocess.Popen[bytes]]) -> float:
    cache = (f"redis://127.0.0.1:6379/{CACHE_DB}" if redis_answers() else "")
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "bench.flood_settings",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{name}",
        "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(32),
        "LINK_KEY": secrets.token_urlsafe(32), "ALLOWED_HOSTS": "127.0.0.1",
        "BEHIND_HTTPS_PROXY": "1", "SITE_URL": "https://127.0.0.1",
        "CELERY_BROKER_URL": "memory://localhost/", "CELERY_TASK_ALWAYS_EAGER": "0",
        "CACHE_URL": cache,
    })
    os.environ.pop("SENTRY_DSN", None)
    import django

    django.setup()
    from django.core.cache import cache as shared
    from django.core.management import call_command
    from django.db import connections

    from games.game.core.game import Game

    call_command("migrate", verbosity=0)
    if cache:
        shared.clear()
    made = make_games(args.games, itertools.count(500))
    ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    games = list(zip(made, ids, strict=True))
    connections.close_all()
    port = free_port()
    server.append(start_gunicorn(port, dict(os.environ), log))
    print(f"postgresql: {name}; rate limits in {cache or 'each process'}; "
          f"{args.games} games, {args.moves} timed moves per run, {args.flooders} flooders")
    mover(port, games, 20)  # warm-up, untimed
    quiet = mover(port, games, args.moves)
    stop, counts = multiprocessing.Event(), multiprocessing.Array("l", 2)
    urls = [f"/api/play/{game.tokens[FLOODED_SEAT]}/moves" for game, _ in games]
    floods = [multiprocessing.Process(target=flooder, args=(
        port, urls, args.rate / args.flooders, stop, counts)) for _ in range(args.flooders)]
    for flood in floods:
        flood.start()
    time.sleep(2.0)  # the flood is on, and past the limit, before the mover starts
    try:
        flooded = mover(port, games, args.moves)
    finally:
        stop.set()
        for flood in floods:
            flood.join()
    for label, times in (("quiet", quiet), ("flooded", flooded)):
        print(f"{label:8} p50 {statistics.median(times) * 1000:6.1f} ms   "
              f"p95 {percentile(times, 0.95) * 1000:6.1f} ms")
    print(f"flood: {counts[0] + counts[1]} requests, {counts[0]} answered 429")
    ratio = percentile(flooded, 0.95) / percentile(quiet, 0.95)
    print(f"p95 flooded / quiet: {ratio:.2f}")
    if cache:
        shared.clear()
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--moves", type=int, default=300, help="timed moves per run")
    parser.add_argument("--flooders", type=int, default=2, help="flooding processes")
    parser.add_argument("--rate", type=float, default=200.0,
                        help="flooding requests a second, in all")
    parser.add_argument("--max-ratio", type=float, default=None)
    args = parser.parse_args()
    import psycopg

    name = f"saboteur_bench_flood_{os.getpid()}"
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    server: list[subprocess.Popen[bytes]] = []
    log = ROOT / "var" / f"bench-flood-{os.getpid()}.log"
    log.parent.mkdir(exist_ok=True)
    try:
        ratio = run(args, name, log, server)
    finally:
        for proc in server:
            stop_gunicorn(proc)
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        log.unlink(missing_ok=True)
    if args.max_ratio is not None and ratio > args.max_ratio:
        print(f"above --max-ratio {args.max_ratio}")
        sys.exit(1)


if __name__ == "__main__":
    main()
