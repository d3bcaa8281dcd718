"""What a seat page GET (`/play/<secret>/`) costs in CPU, against a bare page.

    .venv/bin/python bench/seat_page.py              # SQLite, a throwaway file in var/
    .venv/bin/python bench/seat_page.py --postgres   # PostgreSQL on 127.0.0.1:5432 (user
                                                     # postgres), a throwaway database
    options: --repeat 100  --base-moves 30  --s2-moves 60  --talk 12  --sql
             --profile N [--only PATTERN]

Sets up two games in mid-play: a 5-seat base game with BASE_MOVES moves made and a
10-seat Saboteur 2 game with S2_MOVES moves made (moves chosen as the whole-game tests
choose them: mostly digging east, sometimes anything, Saboteur 2's action cards a third
of the time), TALK lines of table talk in each. Then, in REPEAT interleaved rounds,
GETs the page of the seat to play in each game (its move forms built, as before every
move of a game played through the page) and a bare page: a view of the same site, through
the same middleware and client, rendering base.html with the same context processors and
no query. Prints the CPU of this process per GET (the median of time.process_time over
the rounds: what the page costs, whatever else the shared machine does; DEBUG off, as in
production), each page's SQL queries, and the ratio page/bare per game: the figure to
compare across machines. `--sql` lists each page's statements. `--profile N` prints
instead the N functions of most cumulative time over the Saboteur 2 page's GETs
(cProfile; `--only games/` keeps the functions whose path matches).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from throwaway_db import throwaway_database  # noqa: E402  (bench/ is the script's folder)

BARE = "/bench/bare/"


def choose(legal: list[Any], rng: random.Random, special: float) -> Any:
    """The whole-game tests' policy (tests/support.py `choose`)."""
    if special:
        specials = [m for m in legal if m["type"] in ("action", "free", "rockfall", "map",
                                                     "steal")]
        if specials and rng.random() < special:
            return rng.choice(specials)
    places = [m for m in legal if m["type"] == "place"]
    if places and rng.random() < 0.7:
        best = max(m["x"] for m in places)
        return rng.choice([m for m in places if m["x"] == best])
    return rng.choice(legal)


def mid_game(label: str, seats: int, ruleset: str, moves: int, talk: int,
             seed: int) -> tuple[str, str]:
    """(label, the path of the page of the seat to play) of a game `moves` moves in."""
    from games import engine
    from games.moves.services import moves as move_service
    from games.moves.services import seat_services
    from games.seats.core.links import seat_path, token_of_seat
    from games.setup.services import game_setup

    players = [game_setup.PlayerSpec(name=f"Player {i}", email=f"{label}-{i}@bench.example")
               for i in range(seats)]
    game = game_setup.create_game(name=f"Bench {label}", players=players, seed=seed,
                                  start=True, invite=False, ruleset=ruleset).game
    rng = random.Random(seed)
    for n in range(moves):
        game.refresh_from_db()
        state = game.state()
        assert not state.finished, f"{label}: the game ended after {n} moves"
        move = choose(engine.legal_moves(state), rng, 0.35 if ruleset == "saboteur2" else 0)
        assert state.actor is not None
        move_service.game_move_submit(actor=move_service.BySeat(game.seats.get(number=state.actor)),
                                      version=game.version, move=move)
    all_seats = list(game.seats.order_by("number"))
    for n in range(talk):
        seat_services.post_message(all_seats[n % seats], f"Line {n} of the table talk: "
                                   "who broke my lamp?")
    game.refresh_from_db()
    actor = game.state().actor
    assert actor is not None
    return label, seat_path(token_of_seat(all_seats[actor]))


def bare_urlconf() -> str:
    """A URLconf of the whole site plus the bare page; returns its module name."""
    from django.http import HttpRequest, HttpResponse
    from django.shortcuts import render
    from django.urls import path

    from saboteur_site import urls as site

    def bare(request: HttpRequest) -> HttpResponse:
        return render(request, "base.html", {})

    module = types.ModuleType("bench_seat_page_urls")
    module.urlpatterns = [path(BARE.strip("/") + "/", bare), *site.urlpatterns]  # type: ignore[attr-defined]
    for handler in ("handler400", "handler404", "handler500"):
        setattr(module, handler, getattr(site, handler))
    sys.modules[module.__name__] = module
    return module.__name__


def cpu_of(get: Callable[[], Any]) -> float:
    start = time.process_time()
    get()
    return time.process_time() - start


def queries(client: Any, url: str, *, show: bool = False) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    if show:
        for query in captured:
            print(f"    {query['sql'][:160]}")
    return len(captured)


def run(args: argparse.Namespace) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"
    import django

    django.setup()
    from django.conf import settings

    # As in production: no query log, templates compiled without debug information
    # (DEBUG=1 only lets the settings load without the production keys).
    settings.DEBUG = False
    warnings.filterwarnings("ignore", message="No directory at")  # no collectstatic here
    from django.core.management import call_command
    from django.test import Client

    from saboteur_site.celery import app

    app.conf.update(task_always_eager=False, broker_url="memory://")
    settings.ALLOWED_HOSTS = ["*"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    call_command("migrate", verbosity=0)
    settings.ROOT_URLCONF = bare_urlconf()
    pages = [mid_game("base, 5 seats", 5, "base", args.base_moves, args.talk, seed=11),
             mid_game("Saboteur 2, 10 seats", 10, "saboteur2", args.s2_moves, args.talk,
                      seed=12)]
    client = Client()

    def get(url: str) -> Callable[[], Any]:
        def one() -> None:
            answer = client.get(url)
            assert answer.status_code == 200, (url, answer.status_code)
        return one

    for _label, url in pages:  # warm: templates compiled, translations loaded
        get(url)()
    get(BARE)()
    if args.profile:
        import cProfile
        import pstats

        url = pages[-1][1]
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.repeat):
            get(url)()
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(*args.only, args.profile)
        return
    spent: dict[str, list[float]] = {url: [] for url in [BARE, *(url for _l, url in pages)]}
    for _ in range(args.repeat):
        for url, times in spent.items():
            times.append(cpu_of(get(url)) * 1000)
    bare = statistics.median(spent[BARE])
    print(f"CPU per GET, median of {args.repeat} interleaved rounds (time.process_time)")
    print(f"  {'bare page (base.html)':>24}: {bare:7.2f} ms, {queries(client, BARE)} queries")
    for label, url in pages:
        ms = statistics.median(spent[url])
        print(f"  {label:>24}: {ms:7.2f} ms, {queries(client, url)} queries, "
              f"ratio to bare {ms / bare:.1f}")
    if args.sql:
        for label, url in pages:
            print(f"  the SQL of one GET, {label}:")
            queries(client, url, show=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--base-moves", type=int, default=30)
    parser.add_argument("--s2-moves", type=int, default=60)
    parser.add_argument("--talk", type=int, default=12)
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    parser.add_argument("--only", action="append", default=[], metavar="PATTERN",
                        help="with --profile: only the functions whose path matches")
    parser.add_argument("--sql", action="store_true", help="list each page's SQL")
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    cleanup = throwaway_database("seatpage", postgres=args.postgres)
    try:
        run(args)
    finally:
        cleanup()


if __name__ == "__main__":
    main()
