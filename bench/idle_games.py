"""Many idle active games with their seats, made inside PostgreSQL (INSERT ... SELECT over
generate_series: no row crosses from Python), so a bench can measure with a million games
in the tables. Each game is a row of its clock kind (bench/sweep.py's clock_mix: a bank,
days off, a pause, or none) with a stub snapshot and its deadline within the next day;
each has three seats with their own name, address, secret hash and link salt, so every
index the move path reads (public id, secret hash, game and number) is as deep as it
would be. bench/api.py --games N uses it; bench/sweep.py's COPY loader makes due games
with real snapshots for the sweeps instead."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

# A column taken from the series instead of from the row's template: (SQL, its parameters).
Series = dict[str, tuple[str, list[Any]]]
# A seat's (SQL of g, its game's row, and s.number); a game's are made per run (the
# deadline is the run's).
SEAT_SERIES: Series = {
    "game_id": ("g.id", []),
    "number": ("s.number", []),
    "player_name": ("'P' || g.id || '-' || s.number", []),
    "email": ("'p' || g.id || '-' || s.number || '@example.com'", []),
    "mailbox_key": ("'p' || g.id || '-' || s.number || '@example.com'", []),
    "secret_hash": ("md5('s' || g.id || '-' || s.number) || md5('t' || g.id || '-' || s.number)",
                    []),
    "link_salt": ("substr(md5('l' || g.id || '-' || s.number), 1, 16)", []),
}


def insert_idle_games(count: int, now: datetime) -> None:
    """`count` idle games (public ids idle-1 ... idle-N) and their 3 * `count` seats."""
    from django.db import connection
    from sweep import clock_mix

    from games.game.core.game import Game
    from games.seats.core.seat import Seat

    started = time.perf_counter()
    # Spread over the next day, a second apart: never due while the bench runs.
    spread = "%s::timestamptz + (n %% 86400) * interval '1 second'"
    game_series: Series = {
        "name": ("'Idle ' || n", []), "seed": ("n", []), "public_id": ("'idle-' || n", []),
        "deadline_at": (spread, [now + timedelta(hours=2)]),
        "reminder_at": (spread, [now + timedelta(hours=1)]),
    }
    for kind in range(4):  # one statement per clock kind: n = kind + 1, kind + 5, ...
        game = Game(name="", seed=0, snapshot={"bench": True}, actor=0, version=0,
                    status=Game.Status.ACTIVE, turn_started_at=now - timedelta(hours=1),
                    public_id="", hours_per_move=24, **clock_mix(kind, now))
        sql, params = _insert_select(Game, game, game_series,
                                     f"generate_series({kind + 1}, {count}, 4) AS n")
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    print(f"INSERT ... SELECT: {count:,} idle games in {time.perf_counter() - started:.0f}s")
    started = time.perf_counter()
    seat = Seat(game_id=0, number=0, player_name="", email="p@example.com", secret_hash="",
                link_salt="", time_zone="Europe/Rome", accepted_at=now - timedelta(days=1))
    sql, params = _insert_select(Seat, seat, SEAT_SERIES,
                                 "games_game g CROSS JOIN generate_series(0, 2) AS s(number) "
                                 "WHERE g.public_id LIKE 'idle-%%'")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        cursor.execute("ANALYZE games_game")
        cursor.execute("ANALYZE games_seat")
    print(f"INSERT ... SELECT: {3 * count:,} seats in {time.perf_counter() - started:.0f}s")


def _insert_select(model: Any, template: Any, series: Series,
                   source: str) -> tuple[str, list[Any]]:
    """INSERT INTO the model's table SELECT, per concrete column, the series' expression
    or the template's value as a parameter, FROM `source`."""
    from django.db import connection
    from sweep import db_row

    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns, selected, params = [], [], []
    for field, value in zip(fields, db_row(template, fields), strict=True):
        columns.append(connection.ops.quote_name(field.column))
        expression, own = series.get(field.attname, ("%s", [value]))
        selected.append(expression)
        params.extend(own)
    # Every name and expression here is the bench's own; the values go as parameters.
    sql = (f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "  # noqa: S608
           f"SELECT {', '.join(selected)} FROM {source}")
    return sql, params
