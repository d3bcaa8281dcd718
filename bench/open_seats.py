"""What `GET /seats/` (the open-seats page) costs with many listed seats against a few
(issue 34, item 6).

    .venv/bin/python bench/open_seats.py              # SQLite, a throwaway file in var/
    .venv/bin/python bench/open_seats.py --postgres   # PostgreSQL on 127.0.0.1:5432 (user
                                                      # postgres), a throwaway database
    options: --few 3  --many 200  --moves 12  --repeat 30  --gap 0.05

Opens a seat in each of MANY games (4 seats, MOVES moves played in each), then times the
page through Django's full stack with FEW of them listed and with all MANY listed, in
REPEAT interleaved rounds (the other games' list_open_seats turned off and on between
requests). Prints both medians (wall clock, and this process's CPU), the queries and the
seats shown, and the ratio many/few. Target: within 2x (the page shows 20 seats at most, in the same
few queries however many are listed).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from throwaway_db import throwaway_database  # noqa: E402  (bench/ is the script's folder)


def list_seats(count: int, moves: int, first: int) -> None:
    """`count` listed open seats, each in a game of its own with `moves` moves made."""
    from games import engine
    from games.handover.services import opening
    from games.moves.services import moves as move_service
    from games.setup.services import game_setup

    rng = random.Random(first)
    for n in range(first, first + count):
        players = [game_setup.PlayerSpec(name=f"P{i}", email=f"p{n}-{i}@bench.example")
                   for i in range(4)]
        game = game_setup.create_game(name=f"Bench {n}", players=players, seed=n, start=True,
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


def timed_get(client: object, gap: float) -> tuple[float, float]:
    """(wall ms, CPU ms of this process) of one GET /seats/, after a pause (as between a
    remote client's requests: on a busy machine back-to-back requests are preempted,
    which spreads the wall clock by far more than the page costs)."""
    time.sleep(gap)
    wall, cpu = time.perf_counter(), time.process_time()
    answer = client.get("/seats/")  # type: ignore[attr-defined]
    assert answer.status_code == 200, answer.status_code
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def shown(client: object) -> tuple[int, int]:
    """(queries, seats shown) of GET /seats/."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        page = client.get("/seats/").content.decode()  # type: ignore[attr-defined]
    return len(captured), page.count('class="open-seat"')


def run(args: argparse.Namespace) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    from games.game.core.game import Game
    from saboteur_site.celery import app

    app.conf.update(task_always_eager=False, broker_url="memory://")
    settings.ALLOWED_HOSTS = ["*"]
    settings.RATE_LIMITS = {"seats_page": [10**9, 60]}
    call_command("migrate", verbosity=0)
    list_seats(args.many, args.moves, first=0)
    extra = list(Game.objects.order_by("pk").values_list("pk", flat=True))[args.few:]
    client = Client()

    def listing(*, many: bool) -> None:
        Game.objects.filter(pk__in=extra).update(list_open_seats=many)

    # Interleaved, FEW then MANY in each round, so that a machine busy with other work
    # slows both alike; the CPU time of this process is printed too (it is what the
    # page costs, whatever else the machine does).
    results: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    facts: dict[bool, tuple[int, int]] = {}
    for many in (False, True):
        listing(many=many)
        timed_get(client, args.gap)  # warm
        facts[many] = shown(client)
    for _ in range(args.repeat):
        for many in (False, True):
            listing(many=many)
            results[many].append(timed_get(client, args.gap))
    print(f"GET /seats/, {args.repeat} interleaved rounds, games of 4 seats with "
          f"{args.moves} moves made")
    medians = {}
    for many, label in ((False, f"{args.few} listed"), (True, f"{args.many} listed")):
        wall = statistics.median(t for t, _cpu in results[many])
        cpu = statistics.median(c for _t, c in results[many])
        medians[many] = (wall, cpu)
        queries, seats = facts[many]
        print(f"  {label:>12}: {wall:7.2f} ms ({cpu:.2f} ms CPU), {queries} queries, "
              f"{seats} seats shown")
    ratio = medians[True][0] / medians[False][0]
    print(f"  ratio {args.many}/{args.few}: {ratio:.2f} "
          f"(CPU {medians[True][1] / medians[False][1]:.2f}; target: at most 2)")
    if args.check and ratio > 2:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--few", type=int, default=3)
    parser.add_argument("--many", type=int, default=200)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--gap", type=float, default=0.05,
                        help="seconds between two requests (default 0.05)")
    parser.add_argument("--check", action="store_true", help="exit 1 past the target")
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    cleanup = throwaway_database("seats", postgres=args.postgres)
    try:
        run(args)
    finally:
        cleanup()


if __name__ == "__main__":
    main()
