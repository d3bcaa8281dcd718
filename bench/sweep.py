"""How long the beat's deadline and reminder sweeps take with 100,000 active games.

    python bench/sweep.py                      # SQLite, a throwaway file in var/
    python bench/sweep.py --postgres           # PostgreSQL on 127.0.0.1:5432 (user
                                               # postgres), a throwaway database
    nice -n 19 python bench/sweep.py --postgres --games 1000000   # a million (COPY)
    DATABASE_URL=... python bench/sweep.py     # any other (throwaway!) database

Seeds GAMES active games (on PostgreSQL with COPY, about a minute per 200,000 games on
this machine; bulk_create on SQLite): 10% with their deadline passed (a real
engine snapshot and seats, so the per-game work is the real thing), another 10%
with a reminder due, the rest with both in the future (a stub snapshot: the sweeps
never load it). Then prints, as the median of REPEAT runs:

- the bare indexed query: the due games' (id, version, deadline), nothing else;
- one deadline sweep and one reminder sweep as the beat runs them: claiming the
  interval (one conditional UPDATE of the sweep's mark), the same indexed range
  query, and publishing the per-game work as tasks of 1000 games each (BATCH) through Celery
  (to kombu's in-memory transport, so the figure is ours, not a broker's);
- for scale, what the tasks then do: a sample of due games handled for real (the
  timeout pass as a system move with its notice, the reminder planned), per game.

The clock's settings are in the mix (issue 35): a quarter of the games play with a time
bank (bank, increment, cap and every seat's bank stored), a quarter with the weekend and
two dates off, a quarter with a table pause behind them, and the due games' seats have
quiet hours in their own zones. The sweep still asks only the stored deadline (which a
turn's start, a pause or a settings change computes, games.clock.core.timing), so its
query is the same indexed range. For scale, it also prints what computing a deadline
costs when a turn begins, plain and with all of these.

Target: each sweep within 2x the bare query (`--max-ratio`, default 2: exits 1 above it).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from throwaway_db import throwaway_database  # noqa: E402  (bench/ is the script's folder)


def median_time(fn: Callable[[], object], reset: Callable[[], object], repeat: int
                ) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        reset()
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--due", type=float, default=0.10, help="share of deadlines due")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--handle", type=int, default=400,
                        help="due games handled for real, for the per-game figure")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--max-ratio", type=float, default=2.0)
    args = parser.parse_args()
    cleanup = throwaway_database("sweep", postgres=args.postgres, keep_url=True)
    try:
        worst = run(args)
    finally:
        cleanup()
    print(f"\nworst sweep/bare ratio: {worst:.2f}x (target at most {args.max_ratio}x)")
    sys.exit(0 if worst <= args.max_ratio else 1)


def run(args: argparse.Namespace) -> float:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games import tasks
    from games.clock.services import sweeps as deadlines
    from games.game.core.game import Game
    from games.kit.sweep_marks import SweepMark
    from games.mail.services import reminder_sweeps as reminders
    from saboteur_site.celery import app

    app.conf.update(task_always_eager=False, broker_url="memory://")
    call_command("migrate", verbosity=0)
    now = timezone.now()
    started = time.perf_counter()
    if connection.vendor == "postgresql":
        copy_seed(args.games, args.due, now)
    else:
        seed(args.games, args.due, now)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics, as a live database has them
    print(f"{connection.vendor}: seeded {args.games:,} active games "
          f"in {time.perf_counter() - started:.1f}s")
    if connection.vendor == "postgresql":
        table_bytes(args.games)

    def bare(column: str) -> Callable[[], object]:
        query = Game.objects.filter(status=Game.Status.ACTIVE, **{f"{column}__lte": now})
        return lambda: list(query.order_by().values_list("pk", "version", column))

    def swept(sweep: Callable[..., int], handler: Any) -> Callable[[], object]:
        return lambda: sweep(handler.delay, now)

    def forget_mark(name: str) -> Callable[[], object]:
        # As after an outage: the whole backlog of due games is in the claimed interval.
        return lambda: SweepMark.objects.filter(name=name).delete()

    rows = []
    for name, column, sweep, handler in [
        ("deadline", "deadline_at", deadlines.sweep_deadlines, tasks.handle_deadlines),
        ("reminder", "reminder_at", reminders.sweep_reminders, tasks.handle_reminders),
    ]:
        # Alternately, so a machine's drift weighs on both alike.
        bases, tooks, found, count = [], [], None, None
        for _ in range(args.repeat):
            base, found = median_time(bare(column), lambda: None, 1)
            took, count = median_time(swept(sweep, handler), forget_mark(name + "s"), 1)
            bases.append(base)
            tooks.append(took)
        assert isinstance(found, list) and count == len(found), (count, found)
        rows.append((name, len(found), statistics.median(bases), statistics.median(tooks)))
    print(f"\n{'sweep':<9} {'due':>7} {'bare query':>11} {'sweep':>9} {'ratio':>6}")
    for name, due, base, took in rows:
        print(f"{name:<9} {due:>7,} {base * 1000:>9.1f}ms {took * 1000:>7.1f}ms "
              f"{took / base:>5.2f}x")
    print(f"\nquery plan of the bare deadline query ({connection.vendor}):")
    sql, params = (Game.objects.filter(status="active", deadline_at__lte=now).order_by()
                   .values_list("pk", "version", "deadline_at").query.sql_with_params())
    with connection.cursor() as cursor:
        explain = "EXPLAIN QUERY PLAN " if connection.vendor == "sqlite" else "EXPLAIN "
        cursor.execute(explain + sql, params)
        for line in cursor.fetchall():
            print("   ", line[-1])
    deadline_cost(now)
    handle_sample(args.handle, now)
    return max(took / base for _name, _due, base, took in rows)


def deadline_cost(now: datetime, repeat: int = 2000) -> None:
    """What a turn's start spends computing its deadline (games.clock.core.timing)."""
    from zoneinfo import ZoneInfo

    from games.clock.core import timing as timing

    plain = timing.Rules()
    slow = timing.Rules(zone=ZoneInfo("Europe/Rome"), weekdays_off=frozenset({5, 6}),
                        dates_off=frozenset({(now + timedelta(days=3)).date()}),
                        quiet=(22, 8), stops=((now + timedelta(days=1),
                                               now + timedelta(days=3)),))
    for name, rules, time_left in [("plain 24 h", plain, timedelta(hours=24)),
                                   ("bank of 5 days, weekend and a date off, quiet hours, "
                                    "a pause", slow, timedelta(days=5))]:
        started = time.perf_counter()
        for _ in range(repeat):
            timing.deadline(rules, now, time_left)
        took = (time.perf_counter() - started) / repeat
        print(f"deadline at a turn's start, {name}: {took * 1e6:.0f} µs")


def handle_sample(count: int, now: datetime) -> None:
    """The per-game work the tasks do, on a sample, to size the workers."""
    from games.clock.services import sweeps as d
    from games.kit.sweep_marks import SweepMark as Mark
    from games.mail.services import reminder_sweeps as r

    for name, sweep, handle in [("deadline", d.sweep_deadlines, d.handle_deadlines),
                                ("reminder", r.sweep_reminders, r.handle_reminders)]:
        Mark.objects.filter(name=name + "s").delete()
        batches: list[list[list[object]]] = []
        sweep(batches.append, now)
        sample = [row for batch in batches for row in batch][:count]
        started = time.perf_counter()
        for i in range(0, len(sample), d.BATCH):
            handle(sample[i:i + d.BATCH])
        took = time.perf_counter() - started
        print(f"{name} tasks: {len(sample)} games handled in {took:.2f}s "
              f"({took / max(len(sample), 1) * 1000:.1f} ms per game, one worker process)")


def seed(count: int, due: float, now: datetime) -> None:
    from games import engine as eng
    from games.game.core.game import Game as G
    from games.seats.core.seat import Seat as S

    rng = random.Random(1)
    n_due = int(count * due)
    batch = 5000
    for start in range(0, count, batch):
        games = []
        for n in range(start, min(start + batch, count)):
            state = eng.new_game(3, n).to_json() if n < n_due else {"bench": True}
            if n < n_due:
                deadline = now - timedelta(seconds=rng.randrange(1, 86400))
                reminder = None
            elif n < 2 * n_due:
                deadline = now + timedelta(seconds=rng.randrange(3600, 12 * 3600))
                reminder = now - timedelta(seconds=rng.randrange(1, 3600))
            else:
                deadline = now + timedelta(seconds=rng.randrange(3600, 86400))
                reminder = deadline - timedelta(hours=1)
            games.append(G(name=f"Bench {n}", seed=n, snapshot=state, actor=0, version=0,
                           status=G.Status.ACTIVE, turn_started_at=now - timedelta(hours=1),
                           deadline_at=deadline, reminder_at=reminder, public_id=f"bench-{n}",
                           hours_per_move=24, **clock_mix(n, now)))
        G.objects.bulk_create(games)
        # Seats only where the tasks need them: the due deadlines and reminders; quiet
        # hours and zones of their own for half of them.
        S.objects.bulk_create([
            S(game=g, number=i, player_name=f"P{g.seed}-{i}", email=f"p{g.seed}-{i}@example.com",
              secret_hash=f"{g.seed:032d}{i:032d}", link_salt=f"{g.seed:x}{i}",
              time_zone=ZONES[(g.seed + i) % len(ZONES)],
              quiet_from=22 if (g.seed + i) % 2 else None, quiet_to=7 if (g.seed + i) % 2 else None)
            for g in games if g.seed < 2 * n_due for i in range(3)])


ZONES = ["UTC", "Europe/Rome", "America/New_York", "Asia/Tokyo"]


def db_row(obj: Any, fields: list[Any]) -> list[Any]:
    """The values an INSERT of `obj` would write (pre_save: auto times, mailbox keys)."""
    from django.db import connection

    return [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]


def copy_rows(model: Any, rows: Any) -> None:
    """COPY `rows` (lists in the order of the model's concrete non-id fields) into its
    table: PostgreSQL's bulk load, a few times faster than INSERTs."""
    from django.db import connection

    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {model._meta.db_table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def copy_seed(count: int, due: float, now: datetime) -> None:
    """What seed() makes, loaded with COPY: a row per game from a template of its kind
    (clock mix, due deadline, due reminder, neither) with its own name, seed, public id,
    times and (due deadlines) its real snapshot; then the seats of the due games."""
    from django.db import connection
    from django.db.models import JSONField

    from games import engine as eng
    from games.game.core.game import Game as G
    from games.seats.core.seat import Seat as S

    rng = random.Random(1)
    n_due = int(count * due)
    fields = [f for f in G._meta.concrete_fields if not f.primary_key]
    at = {f.name: i for i, f in enumerate(fields)}
    json = next(f for f in fields if f.name == "snapshot")
    assert isinstance(json, JSONField)
    templates = {kind: db_row(G(name="", seed=0, snapshot={"bench": True}, actor=0, version=0,
                                status=G.Status.ACTIVE, turn_started_at=now - timedelta(hours=1),
                                public_id="", hours_per_move=24, **clock_mix(kind, now)), fields)
                 for kind in range(4)}

    def games() -> Any:
        for n in range(count):
            row = list(templates[n % 4])
            if n < n_due:
                deadline = now - timedelta(seconds=rng.randrange(1, 86400))
                reminder = None
                row[at["snapshot"]] = json.get_db_prep_save(eng.new_game(3, n).to_json(),
                                                            connection)
            elif n < 2 * n_due:
                deadline = now + timedelta(seconds=rng.randrange(3600, 12 * 3600))
                reminder = now - timedelta(seconds=rng.randrange(1, 3600))
            else:
                deadline = now + timedelta(seconds=rng.randrange(3600, 86400))
                reminder = deadline - timedelta(hours=1)
            row[at["name"]], row[at["seed"]] = f"Bench {n}", n
            row[at["public_id"]] = f"bench-{n}"
            row[at["deadline_at"]], row[at["reminder_at"]] = deadline, reminder
            yield row

    started = time.perf_counter()
    copy_rows(G, games())
    print(f"COPY: {count:,} games in {time.perf_counter() - started:.0f}s")
    started = time.perf_counter()
    seat_fields = [f for f in S._meta.concrete_fields if not f.primary_key]
    ids = list(G.objects.filter(seed__lt=2 * n_due).values_list("pk", "seed"))

    def seats() -> Any:
        for pk, n in ids:
            for i in range(3):
                yield db_row(S(game_id=pk, number=i, player_name=f"P{n}-{i}",
                               email=f"p{n}-{i}@example.com",
                               secret_hash=f"{n:032d}{i:032d}", link_salt=f"{n:x}{i}",
                               time_zone=ZONES[(n + i) % len(ZONES)],
                               quiet_from=22 if (n + i) % 2 else None,
                               quiet_to=7 if (n + i) % 2 else None), seat_fields)

    copy_rows(S, seats())
    print(f"COPY: the seats of {2 * n_due:,} due games in {time.perf_counter() - started:.0f}s")


def table_bytes(count: int) -> None:
    """The game table's bytes per game: its heap (and TOAST), and its indexes."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_table_size('games_game'), pg_indexes_size('games_game')")
        heap, indexes = cursor.fetchone()
    print(f"games_game: {heap / count:,.0f} bytes a game in the table (with TOAST), "
          f"{indexes / count:,.0f} in its indexes ({(heap + indexes) / 2**30:.2f} GiB in all)")


def clock_mix(n: int, now: datetime) -> dict[str, Any]:
    """The clock settings of game `n`: a bank, days off, a pause behind it, or none."""
    kind = n % 4
    if kind == 1:
        return {"bank_hours": 72, "increment_hours": 24, "bank_max_hours": 120,
                "banks": {"0": 3600 * (n % 120), "1": 72 * 3600, "2": 100 * 3600}}
    if kind == 2:
        return {"weekdays_off": [5, 6], "dates_off": ["2026-12-25", "2027-01-01"]}
    if kind == 3:
        return {"stops": [[(now - timedelta(days=3)).isoformat(),
                           (now - timedelta(days=1)).isoformat()]],
                "pause": {"by": 1, "days": 2, "reason": "bench", "agreed": [0, 1],
                          "proposed_at": (now - timedelta(days=3)).isoformat(),
                          "started_at": (now - timedelta(days=3)).isoformat(),
                          "until": (now - timedelta(days=1)).isoformat()},
                "pause_proposers": [1]}
    return {}


if __name__ == "__main__":
    main()
