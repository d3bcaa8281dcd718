"""What `GET /seats/` (the open-seats page) costs with many listed seats against a few
(issue 34, item 6).

    .venv/bin/python bench/open_seats.py              # SQLite, a throwaway file in var/
    .venv/bin/python bench/open_seats.py --postgres   # PostgreSQL on 127.0.0.1:5432 (user
                                                      # postgres), a throwaway database
    options: --few 3  --many 200  --moves 12  --repeat 30

Lists FEW open seats (games of 4 seats, MOVES moves played in each, one seat opened),
times the page (the median of REPEAT requests through Django's full stack) and counts
its queries; then lists MANY and does it again. Prints both medians, the queries, and
the ratio many/few. Target: within 2x (the page shows 20 seats at most, in the same
few queries however many are listed).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def database(postgres: bool) -> Callable[[], None]:
    """Point DATABASE_URL at a throwaway database; returns how to clean it up."""
    os.environ.setdefault("DEBUG", "1")
    if postgres:
        import psycopg

        name = f"saboteur_bench_seats_{os.getpid()}"
        admin = "postgresql://postgres@127.0.0.1:5432/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"

        def drop() -> None:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

        return drop
    path = ROOT / "var" / "bench-seats.sqlite3"
    path.parent.mkdir(exist_ok=True)
    for old in path.parent.glob(path.name + "*"):
        old.unlink()
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"

    def remove() -> None:
        for old in path.parent.glob(path.name + "*"):
            old.unlink()

    return remove


def list_seats(count: int, moves: int, first: int) -> None:
    """`count` listed open seats, each in a game of its own with `moves` moves made."""
    from games import engine
    from games.handover import opening
    from games.play import moves as move_service
    from games.play import services

    rng = random.Random(first)
    for n in range(first, first + count):
        players = [services.PlayerSpec(name=f"P{i}", email=f"p{n}-{i}@bench.example")
                   for i in range(4)]
        game = services.create_game(name=f"Bench {n}", players=players, seed=n, start=True,
                                    invite=False, list_open_seats=True).game
        for _ in range(moves):
            game.refresh_from_db()
            state = game.state()
            move = rng.choice(engine.legal_moves(state))
            assert state.actor is not None
            seat = game.seats.get(number=state.actor)
            move_service.game_move_submit(actor=move_service.BySeat(seat),
                                          version=game.version, move=move)
        opening.open_seat(game.seats.get(number=1).pk)


def measure(repeat: int) -> tuple[float, int, int]:
    """(median ms, queries, seats shown) of GET /seats/."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.get("/seats/")  # warm
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        answer = client.get("/seats/")
        times.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, answer.status_code
    with CaptureQueriesContext(connection) as captured:
        page = client.get("/seats/").content.decode()
    return statistics.median(times), len(captured), page.count('class="open-seat"')


def run(args: argparse.Namespace) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from saboteur_site.celery import app

    app.conf.update(task_always_eager=False, broker_url="memory://")
    settings.ALLOWED_HOSTS = ["*"]
    settings.RATE_LIMITS = {"seats_page": [10**9, 60]}
    call_command("migrate", verbosity=0)
    list_seats(args.few, args.moves, first=0)
    few = measure(args.repeat)
    list_seats(args.many - args.few, args.moves, first=args.few)
    many = measure(args.repeat)
    print(f"GET /seats/, median of {args.repeat} requests, games of 4 seats with "
          f"{args.moves} moves made")
    for label, (ms, queries, shown) in ((f"{args.few} listed", few),
                                        (f"{args.many} listed", many)):
        print(f"  {label:>12}: {ms:7.2f} ms, {queries} queries, {shown} seats shown")
    ratio = many[0] / few[0]
    print(f"  ratio {args.many}/{args.few}: {ratio:.2f} (target: at most 2)")
    if args.check and ratio > 2:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--few", type=int, default=3)
    parser.add_argument("--many", type=int, default=200)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--check", action="store_true", help="exit 1 past the target")
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    cleanup = database(args.postgres)
    try:
        run(args)
    finally:
        cleanup()


if __name__ == "__main__":
    main()
