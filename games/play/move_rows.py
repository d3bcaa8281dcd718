"""The three writes of a move as plain statements (games.play.services.apply_move).

Every move runs them, and the ORM would compile the same SQL again on each request (a
locked select, an insert, a conditional update: about a millisecond of a move's few).
Values go through each field's own `get_db_prep_save`, so they are stored exactly as the
ORM would store them, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django.db import connection, models

from games.models import Game, Move


def _prepared(model: type[models.Model], names: Sequence[str],
              values: Sequence[Any]) -> tuple[list[str], list[Any]]:
    fields = [cast(models.Field, model._meta.get_field(name))  # type: ignore[type-arg]
              for name in names]
    columns = [connection.ops.quote_name(str(field.column)) for field in fields]
    params = [field.get_db_prep_save(value, connection)
              for field, value in zip(fields, values, strict=True)]
    return columns, params


def locked_game(game_id: int) -> Game:
    """The Game row, locked for this transaction where the database can (SQLite
    serialises writers instead). Raises Game.DoesNotExist."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    found = list(Game.objects.raw(
        f"SELECT * FROM {Game._meta.db_table} WHERE id = %s{lock}", [game_id]))
    if not found:
        raise Game.DoesNotExist(f"no game {game_id}")
    return found[0]


def insert_move(values: dict[str, Any]) -> None:
    columns, params = _prepared(Move, list(values), list(values.values()))
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {Move._meta.db_table} ({', '.join(columns)}) "
                       f"VALUES ({', '.join(['%s'] * len(params))})", params)


def update_game_at(game_id: int, version: int, values: dict[str, Any]) -> int:
    """UPDATE the game only if it is still at `version`; how many rows were written."""
    columns, params = _prepared(Game, list(values), list(values.values()))
    assignments = ", ".join(f"{column} = %s" for column in columns)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {Game._meta.db_table} SET {assignments} "
                       "WHERE id = %s AND version = %s", [*params, game_id, version])
        return int(cursor.rowcount)
