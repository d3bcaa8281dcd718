"""A move's reads and writes as plain statements (games.play.services.apply_move).

Every move runs them, so they are few and precompiled: on PostgreSQL a move is one
locked read (the game row, its seats and, when the answer needs it, the whole log so far)
and one write (the Move row, its follow-up row and the conditional game update, in one
statement), as near as it gets to the minimum a move needs. Other databases (SQLite in
development and tests) run the same reads and writes one statement each.

Values go through each field's own `get_db_prep_save`, and rows come back through the
ORM's own converters (games.models.rows), so everything is stored and read exactly as the
ORM would, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, NamedTuple, cast

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.engine.types import JSON
from games.models import FollowUp, Game, Move, Seat, links, rows
from games.models.fields import VerbatimJSONField, json_text
from games.models.game import events_of_game_sql, joined_events
from games.play import log_cache


@dataclass(frozen=True)
class SeatRow:
    """What a move needs of a seat (and what its answer lists of the players)."""
    id: int
    number: int
    kind: str
    player_name: str
    vacation_until: datetime | None
    missed_turns: int
    absent_since: datetime | None


@dataclass
class Locked:
    game: Game
    seats: dict[int, SeatRow]
    log: list[JSON] | None  # the whole log before this move, when asked for


_SEAT_COLUMNS = "id, number, kind, player_name, vacation_until, missed_turns, absent_since"


def lock_game(game_id: int, *, with_log: bool = False) -> Locked:
    """The Game row, locked for this transaction where the database can (SQLite
    serialises writers instead), with its seats. Raises Game.DoesNotExist."""
    if connection.vendor == "postgresql":
        return _lock_game_in_one(game_id, with_log)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {rows.column_list(Game)} FROM {Game._meta.db_table} "
                       f"WHERE id = %s{lock}", [game_id])
        found = cursor.fetchone()
        if found is None:
            raise Game.DoesNotExist(f"no game {game_id}")
        game = rows.from_row(Game, found)
        cursor.execute(f"SELECT {_SEAT_COLUMNS} FROM {Seat._meta.db_table} "
                       "WHERE game_id = %s ORDER BY number", [game_id])
        seats = [SeatRow(*_seat_values(row)) for row in cursor.fetchall()]
    return Locked(game, {s.number: s for s in seats}, game.full_log() if with_log else None)


def _lock_game_in_one(game_id: int, with_log: bool) -> Locked:
    since = log_cache.known(game_id) if with_log else None
    columns, params = _locked_columns(with_log, since)
    with rows.hot_cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {Game._meta.db_table} g "
                       "WHERE g.id = %s FOR UPDATE", [*params, game_id])
        found = cursor.fetchone()
    if found is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return _locked(found, with_log, since)


def _locked_columns(with_log: bool,
                    since: log_cache.Entry | None) -> tuple[str, list[Any]]:
    """PostgreSQL: the game `g`'s columns, its seats as JSON and (`with_log`) its log, or
    with a log this process knows up to a move, the events after it and that move's id;
    the statement's parameters for these."""
    seats_sql = (f"(SELECT json_agg(json_build_array({_SEAT_COLUMNS}) ORDER BY number)::text "
                 f"FROM {Seat._meta.db_table} WHERE game_id = g.id)")
    columns = f"{rows.column_list(Game, 'g')}, {seats_sql}"
    if not with_log:
        return columns, []
    if since is None:
        return f"{columns}, ({events_of_game_sql('g.id')})", []
    moves = Move._meta.db_table
    return (f"{columns}, ({events_of_game_sql('g.id', after='%s')}), "
            f"(SELECT id FROM {moves} WHERE game_id = g.id AND number = %s)",
            [since.number, since.number])


def _locked(row: Sequence[Any], with_log: bool, since: log_cache.Entry | None) -> Locked:
    game = rows.from_row(Game, row)
    extra = row[rows.width(Game):]
    seats = [SeatRow(*_seat_values(values)) for values in orjson.loads(extra[0] or "[]")]
    log = _log(game, extra, since) if with_log else None
    return Locked(game, {s.number: s for s in seats}, log)


def _log(game: Game, extra: Sequence[Any], since: log_cache.Entry | None) -> list[JSON]:
    """The whole log from what `_locked_columns` read: all of it, or the remembered log
    and the events since, if that move's row is the remembered one and the lengths add
    up; else (an undo rewrote the rows) a full read."""
    if since is None:
        return [*game.opening_log, *joined_events(extra[1])]
    if extra[2] == since.move_id:
        log = [*since.events, *joined_events(extra[1])]
        if len(log) == game.log_length:
            return log
    return game.full_log()


def lock_by_link(token: str, *, with_log: bool = False) -> tuple[Seat, Locked] | None:
    """The seat whose link carries `token` (games.models.links.find_seat's rules) and its
    game, locked, with its seats (and the log): on PostgreSQL one statement, so a move
    through a link costs no separate lookup. None when no seat has that link."""
    digest = links.token_digest(token)
    if digest is None:
        return None
    if connection.vendor != "postgresql":
        seat = links.find_seat(token)
        return None if seat is None else (seat, lock_game(seat.game_id, with_log=with_log))
    game_id = log_cache.game_of_link(digest)
    since = log_cache.known(game_id) if with_log and game_id is not None else None
    columns, params = _locked_columns(with_log, since)
    with rows.hot_cursor() as cursor:
        cursor.execute(f"SELECT {rows.column_list(Seat, 's')}, {columns} "
                       f"FROM {Seat._meta.db_table} s JOIN {Game._meta.db_table} g "
                       f"ON g.id = s.game_id WHERE {links.SEAT_BY_TOKEN} FOR UPDATE OF g",
                       [*params, digest, digest])
        found = cursor.fetchall()
    seats = [(rows.from_row(Seat, row), row) for row in found]
    seat = links.pick_seat([s for s, _row in seats], digest)
    if seat is None:
        return None
    log_cache.remember_link(digest, seat.game_id)
    row = next(row for s, row in seats if s is seat)
    # Were `since` another game's log, its move id (ids are unique) would not match.
    return seat, _locked(row[rows.width(Seat):], with_log, since)


def _seat_values(row: Sequence[Any]) -> tuple[Any, ...]:
    """(id, number, kind, player_name, vacation_until, missed_turns, absent_since), the
    times read as aware datetimes whether they came as such or as JSON's ISO text."""
    seat_id, number, kind, name, vacation, missed, absent = row
    return (seat_id, number, kind, name, _when(vacation), missed, _when(absent))


def _when(value: Any) -> datetime | None:
    """A stored time as an aware datetime: PostgreSQL's JSON gives ISO text with its
    offset, SQLite the naive UTC text Django stores there."""
    if value is not None and not isinstance(value, datetime):
        value = parse_datetime(str(value))
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


@dataclass(frozen=True)
class _Columns:
    fields: tuple[models.Field, ...]  # type: ignore[type-arg]
    names: tuple[str, ...]  # quoted
    placeholders: tuple[str, ...]
    json: tuple[bool, ...]  # the value goes in as JSON text (PostgreSQL's JSON fields)


@lru_cache(maxsize=16)
def _columns(model: type[models.Model], names: tuple[str, ...], vendor: str) -> _Columns:
    """The fields of `names`, their quoted columns and placeholders, worked out once."""
    fields = tuple(cast(models.Field, model._meta.get_field(name))  # type: ignore[type-arg]
                   for name in names)
    json_text = tuple(vendor == "postgresql" and isinstance(field, models.JSONField)
                      for field in fields)
    return _Columns(fields, tuple(connection.ops.quote_name(str(f.column)) for f in fields),
                    tuple(_json_placeholder(f) if as_text else "%s"
                          for f, as_text in zip(fields, json_text, strict=True)),
                    json_text)


def _json_placeholder(field: models.Field) -> str:  # type: ignore[type-arg]
    return "%s::json" if isinstance(field, VerbatimJSONField) else "%s::jsonb"


def _prepared(model: type[models.Model], names: Sequence[str],
              values: Sequence[Any]) -> tuple[_Columns, list[Any]]:
    """The columns and their values as the ORM would store them; on PostgreSQL the JSON
    fields' values as JSON text (games.models.fields.json_text)."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself, not the proxy, in the loop
    columns = _columns(model, tuple(names), db.vendor)
    params = [json_text(value) if as_text else field.get_db_prep_save(value, db)
              for field, as_text, value in zip(columns.fields, columns.json, values,
                                                strict=True)]
    return columns, params


def _insert(model: type[models.Model], values: dict[str, Any]) -> tuple[str, list[Any]]:
    columns, params = _prepared(model, list(values), list(values.values()))
    return (f"INSERT INTO {model._meta.db_table} ({', '.join(columns.names)}) "
            f"VALUES ({', '.join(columns.placeholders)})", params)


class Written(NamedTuple):
    games: int  # 0: someone else moved first, and the caller rolls everything back
    move_id: int | None  # the new Move row's id, where one statement tells it (PostgreSQL)


def write_move(move: dict[str, Any], game_values: dict[str, Any], version: int) -> Written:
    """Insert the Move row (`move`: its fields) and the game's FollowUp row, and UPDATE the
    game with `game_values` only if it is still at `version`."""
    game_id = move["game"]
    insert_move, move_params = _insert(Move, move)
    insert_follow_up, follow_params = _insert(FollowUp, {
        "game": game_id, "version": move["number"], "created_at": move["created_at"]})
    columns, params = _prepared(Game, list(game_values), list(game_values.values()))
    assignments = ", ".join(f"{name} = {placeholder}" for name, placeholder
                            in zip(columns.names, columns.placeholders, strict=True))
    update = (f"UPDATE {Game._meta.db_table} SET {assignments} "
              "WHERE id = %s AND version = %s")
    update_params = [*params, game_id, version]
    with rows.hot_cursor() as cursor:
        if connection.vendor == "postgresql":
            # One statement, one round trip: the inserts run whatever the update finds,
            # and the caller's rollback takes them back when it found nothing.
            cursor.execute(f"WITH moved AS ({insert_move} RETURNING id), "
                           f"queued AS ({insert_follow_up}) "
                           f"{update} RETURNING (SELECT id FROM moved)",
                           [*move_params, *follow_params, *update_params])
            found = cursor.fetchone()
            return Written(1, int(found[0])) if found is not None else Written(0, None)
        cursor.execute(insert_move, move_params)
        cursor.execute(insert_follow_up, follow_params)
        cursor.execute(update, update_params)
        return Written(int(cursor.rowcount), None)


def queue_follow_up(game_id: int, version: int, when: datetime) -> None:
    """The follow-up of a game state no move led to (a game's start)."""
    FollowUp.objects.create(game_id=game_id, version=version, created_at=when)
