"""The move's reads and writes on PostgreSQL in as few statements as a move needs: the fast
path behind `games.moves.services.move_store.MoveStore`, held by the tests to the ORM reference
(`OrmMoveStore`) and used only on PostgreSQL (`move_store.store()`). bench/api.py measures
both; this one is what keeps the JSON API's throughput near the bare minimum.

A move is one locked read (through a link: the seat by its link's hash joined to its game
`FOR UPDATE`, the seats as JSON and the log as one `string_agg`, or, when this process
remembers the game's log (games.moves.core.log_cache), only the events since) and one write (the
Move and FollowUp inserts and the conditional game UPDATE in one statement). They run on a
cursor that binds on the server (unnamed statements, never prepared: see `hot_cursor`)
and reads binary results; the rows come back through the ORM's own converters
(`from_row`), and the values go in through each field's own `get_db_prep_save`, so
everything is stored and read exactly as the ORM would. This is the only module with
hand-written SQL outside the migrations.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, Protocol, TypeVar, cast

import orjson
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.engine.types import JSON
from games.game.core.follow_up_rows import FollowUp
from games.game.core.game import Game, Move
from games.kit import link_tokens
from games.kit.fields import VerbatimJSONField, json_text
from games.moves.core import log_cache
from games.moves.core.move_store_types import Locked, MoveRow, SeatRow, Written
from games.seats.core import links
from games.seats.core.seat import Seat

# ---- instances from plain rows, as the ORM builds them -------------------------------------

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Plan:
    field_names: tuple[str, ...]  # attnames in the model's concrete field order
    converters: tuple[tuple[int, tuple[Converter, ...], Any], ...]  # (slot, converters, col)
    plain: bool  # the instance can be built by `_plain_instance`


@lru_cache(maxsize=32)
def _plan(model: type[models.Model], vendor: str) -> _Plan:
    # `vendor` is part of the key: the converters differ between SQLite and PostgreSQL.
    del vendor
    connection = connections[DEFAULT_DB_ALIAS]
    names, converters = [], []
    for slot, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(model._meta.db_table)
        found = tuple(_faster(field, convert) for convert in (
            *connection.ops.get_db_converters(column),
            *field.get_db_converters(connection)))  # type: ignore[attr-defined]
        if found:
            converters.append((slot, tuple(found), column))
        names.append(field.attname)
    return _Plan(tuple(names), tuple(converters), _plain(model))


def _plain(model: type[models.Model]) -> bool:
    """Whether the model builds its instances as Django's Model does and stores each
    field's value as it is given (plain attribute descriptors, no __init__ or from_db of
    its own)."""
    return (model.__init__ is models.Model.__init__
            and model.from_db.__func__ is models.Model.from_db.__func__  # type: ignore[attr-defined]
            and all(type(getattr(model, f.attname, None)) in _PLAIN_DESCRIPTORS
                    for f in model._meta.concrete_fields))


_PLAIN_DESCRIPTORS = (DeferredAttribute, ForeignKeyDeferredAttribute)


def _faster(field: models.Field, convert: Converter) -> Converter:  # type: ignore[type-arg]
    """A plain JSONField's own converter (json.loads) as orjson, a quarter of the time on
    a game's snapshot; what orjson refuses (integers past 64 bits) still goes to it."""
    if (type(field) is not models.JSONField or field.decoder is not None
            or getattr(convert, "__func__", None) is not models.JSONField.from_db_value):
        return convert

    def json_value(value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, str | bytes):
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError:
                pass
        return convert(value, expression, connection)

    return json_value


@lru_cache(maxsize=32)
def column_list(model: type[models.Model], table: str = "") -> str:
    """The model's columns, in its field order, for a SELECT (`table`: a table alias)."""
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    prefix = f"{table}." if table else ""
    return ", ".join(f"{prefix}{quote(str(f.column))}" for f in model._meta.concrete_fields)


def width(model: type[models.Model]) -> int:
    """How many values of a row `column_list` gives."""
    return len(model._meta.concrete_fields)


def from_row(model: type[M], row: Sequence[Any]) -> M:
    """The instance whose `column_list` values start the row (later values are ignored)."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself, not the proxy, in the loop
    plan = _plan(model, db.vendor)
    values = list(row[:len(plan.field_names)])
    for slot, converters, column in plan.converters:
        for convert in converters:
            values[slot] = convert(values[slot], column, db)
    if plan.plain and not _init_signals(model):
        return _plain_instance(model, db.alias, plan.field_names, values)
    return model.from_db(db.alias, plan.field_names, values)


def _init_signals(model: type[models.Model]) -> bool:
    return pre_init.has_listeners(model) or post_init.has_listeners(model)


def _plain_instance(model: type[M], alias: str, names: tuple[str, ...], values: list[Any]) -> M:
    """What `model.from_db` builds, its attributes set straight into the instance: a
    model whose own __init__, from_db and attribute descriptors are Django's plain ones
    (`_Plan.plain`), with no pre_init or post_init receiver, stores each value as is."""
    new = model.__new__(model)
    state = new._state = ModelState()
    state.adding, state.db = False, alias
    new.__dict__.update(zip(names, values, strict=True))
    return new


class Cursor(Protocol):
    rowcount: int

    def execute(self, sql: str, params: Sequence[Any] = ...) -> object: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


@contextmanager
def hot_cursor() -> Iterator[Cursor]:
    """A cursor for the statements every move runs.

    On PostgreSQL it binds parameters on the server (Django's cursors bind them in the
    client, quoting every value into the SQL text): the values (a game's 20 KB state
    among them) travel apart from the SQL, never escaped into it. The statements
    are unnamed and never prepared (Django's connections leave psycopg's
    prepare_threshold off, and settings keep it off behind PgBouncer): each is parsed,
    bound and run in one go, which PgBouncer's transaction pooling passes through at any
    version (named prepared statements only from 1.21). It opens as Django's own cursors
    do (the connection's health check, errors wrapped as Django's), and its statements
    are logged where Django logs queries (DEBUG, tests' CaptureQueriesContext)."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        with db.cursor() as django_cursor:
            yield django_cursor
        return
    # What Django's db.cursor() does before it makes a cursor, without making one.
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    with db.wrap_database_errors:
        cursors = _statements_of(db.connection)
        yield cast(Cursor, _Logged(cursors, db) if db.queries_logged else cursors)


class _Statements:
    """A connection's cursors, one per statement text, each kept for the next move that
    runs its statement. psycopg keeps a cursor's Transformer (a loader for each column
    type of the result, a dumper for each parameter's type) only while the very same
    query object runs again, and building it afresh was about a tenth of a move's CPU
    (the locked read's row has over 50 columns)."""

    KEEP = 16  # statement texts a connection keeps a cursor for (a move uses two)

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.cursors: dict[str, tuple[str, Any]] = {}  # text -> (its kept object, cursor)
        self.current: Any = None

    @property
    def rowcount(self) -> int:
        return int(self.current.rowcount)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> object:
        kept = self.cursors.get(sql)
        if kept is None or kept[1].closed:
            if len(self.cursors) >= self.KEEP:
                self.forget()
            kept = self.cursors[sql] = (sql, _binary_cursor(self.connection))
        text, self.current = kept
        return self.current.execute(text, params)  # the kept object: `is` the last query

    def fetchone(self) -> Any:
        return self.current.fetchone()

    def fetchall(self) -> list[Any]:
        return list(self.current.fetchall())

    def forget(self) -> None:
        for _text, cursor in self.cursors.values():
            cursor.close()
        self.cursors.clear()


# This thread's connection and its statements' cursors (a Django connection belongs to
# one thread); a new connection (Django reconnected) gets cursors of its own, and the
# old ones go with their connection.
_KEPT = threading.local()


def _statements_of(connection: Any) -> _Statements:
    kept: _Statements | None = getattr(_KEPT, "statements", None)
    if kept is None or kept.connection is not connection:
        kept = _KEPT.statements = _Statements(connection)
    return kept


def _binary_cursor(connection: Any) -> Any:
    """A server-side binding cursor that also reads results in binary (a timestamp is 8
    bytes to unpack, not text to parse), jsonb still as text, as Django reads it."""
    import psycopg
    from psycopg.pq import Format

    cursor = psycopg.Cursor(connection)
    cursor.format = Format.BINARY  # what connection.cursor(binary=True) sets
    cursor.adapters.register_loader("jsonb", _jsonb_text_loader())
    return cursor


@lru_cache(maxsize=1)
def _jsonb_text_loader() -> type:
    from psycopg.adapt import Loader
    from psycopg.pq import Format

    class JsonbBinaryAsText(Loader):
        """jsonb's binary form is a version byte (1) and the JSON text."""

        format = Format.BINARY

        def load(self, data: Any) -> str:
            return bytes(data[1:]).decode()

    return JsonbBinaryAsText


class _Logged:
    def __init__(self, cursor: Any, db: Any) -> None:
        self.cursor, self.db = cursor, db

    @property
    def rowcount(self) -> int:
        return int(self.cursor.rowcount)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> object:
        started = time.monotonic()
        try:
            return self.cursor.execute(sql, params)
        finally:
            self.db.queries_log.append({"sql": sql % tuple(repr(p) for p in params),
                                        "time": f"{time.monotonic() - started:.3f}"})

    def fetchone(self) -> Any:
        return self.cursor.fetchone()

    def fetchall(self) -> list[Any]:
        return list(self.cursor.fetchall())


# ---- the log as one value ------------------------------------------------------------


def events_of_game_sql(game: str, after: str = "") -> str:
    """PostgreSQL: every Move row's events of game `game` (an SQL expression), in move
    order, as one text of comma-separated JSON arrays (NULL when there is no move): one
    value to read and one parse, however long the game (`joined_events` below).
    `after` (an SQL expression): only the moves numbered above it."""
    later = f" AND number > {after}" if after else ""
    return (f"SELECT string_agg(events::text, ',' ORDER BY number) "
            f"FROM {Move._meta.db_table} WHERE game_id = {game}{later}")


def joined_events(text: str | None) -> list[JSON]:
    """The events in the text `events_of_game_sql` reads, in order."""
    if not text:
        return []
    # orjson: about half the time of json.loads on a late game's log (bench/README.md).
    return [event for events in orjson.loads(f"[{text}]") for event in events]


# ---- the move's statements ----------------------------------------------------------------


_SEAT_COLUMNS = ("id, number, kind, player_name, vacation_until, missed_turns, absent_since, "
                 "time_zone, quiet_from, quiet_to")
# A link's seat: its own link, or an invitation still open (games.seats.core.links.find_seat's
# rule), with the seat table's alias `s`.
SEAT_BY_TOKEN = f"s.secret_hash = %s OR {Seat.invitation_open_sql('s')}"


class FastMoveStore:
    """`MoveStore` on PostgreSQL: one locked read, one write."""

    def lock_game(self, game_id: int, *, with_log: bool = False) -> Locked:
        """The Game row `FOR UPDATE`, its seats and (`with_log`) the log, in one statement.
        Raises Game.DoesNotExist."""
        since = log_cache.known(game_id) if with_log else None
        columns, params = _locked_columns(with_log=with_log, since=since)
        with hot_cursor() as cursor:
            cursor.execute(f"SELECT {columns} FROM {Game._meta.db_table} g "
                           "WHERE g.id = %s FOR UPDATE", [*params, game_id])
            found = cursor.fetchone()
        if found is None:
            raise Game.DoesNotExist(f"no game {game_id}")
        return _locked(found, with_log=with_log, since=since)

    def lock_by_link(self, token: str, *,
                     with_log: bool = False) -> tuple[Seat, Locked] | None:
        """The seat whose link carries `token` and its game, locked, with its seats (and
        the log): one statement, so a move through a link costs no separate lookup."""
        digest = link_tokens.token_digest(token)
        if digest is None:
            return None
        game_id = log_cache.game_of_link(digest)
        since = log_cache.known(game_id) if with_log and game_id is not None else None
        columns, params = _locked_columns(with_log=with_log, since=since)
        with hot_cursor() as cursor:
            cursor.execute(f"SELECT {column_list(Seat, 's')}, {columns} "
                           f"FROM {Seat._meta.db_table} s JOIN {Game._meta.db_table} g "
                           f"ON g.id = s.game_id WHERE {SEAT_BY_TOKEN} FOR UPDATE OF g",
                           [*params, digest, digest])
            found = cursor.fetchall()
        seats = [(from_row(Seat, row), row) for row in found]
        seat = links.pick_seat([s for s, _row in seats], digest)
        if seat is None:
            return None
        log_cache.remember_link(digest, seat.game_id)
        row = next(row for s, row in seats if s is seat)
        # Were `since` another game's log, its move id (ids are unique) would not match.
        return seat, _locked(row[width(Seat):], with_log=with_log, since=since)

    def write_move(self, row: MoveRow, game_values: dict[str, Any], version: int) -> Written:
        """The Move and FollowUp inserts and the game's UPDATE, conditional on `version`,
        in one statement and one round trip: the inserts run whatever the update finds,
        and the caller's rollback takes them back when it found nothing."""
        game_id = row["game"]
        insert_move, move_params = _insert(Move, dict(row))
        insert_follow_up, follow_params = _insert(FollowUp, {
            "game": game_id, "version": row["number"], "created_at": row["created_at"]})
        columns, params = _prepared(Game, list(game_values), list(game_values.values()))
        assignments = ", ".join(f"{name} = {placeholder}" for name, placeholder
                                in zip(columns.names, columns.placeholders, strict=True))
        with hot_cursor() as cursor:
            cursor.execute(f"WITH moved AS ({insert_move} RETURNING id), "
                           f"queued AS ({insert_follow_up}) "
                           f"UPDATE {Game._meta.db_table} SET {assignments} "
                           "WHERE id = %s AND version = %s RETURNING (SELECT id FROM moved)",
                           [*move_params, *follow_params, *params, game_id, version])
            found = cursor.fetchone()
        return Written(1, int(found[0])) if found is not None else Written(0, None)

    def remember(self, game_id: int, number: int, move_id: int, log: list[JSON]) -> None:
        """The next read of this game in this process asks only for the events after."""
        log_cache.remember(game_id, log_cache.Entry(number, move_id, log))


def _locked_columns(*, with_log: bool,
                    since: log_cache.Entry | None) -> tuple[str, list[Any]]:
    """The game `g`'s columns, its seats as JSON and (`with_log`) its log, or with a log
    this process knows up to a move, the events after it and that move's id; the
    statement's parameters for these."""
    seats_sql = (f"(SELECT json_agg(json_build_array({_SEAT_COLUMNS}) ORDER BY number)::text "
                 f"FROM {Seat._meta.db_table} WHERE game_id = g.id)")
    columns = f"{column_list(Game, 'g')}, {seats_sql}"
    if not with_log:
        return columns, []
    if since is None:
        return f"{columns}, ({events_of_game_sql('g.id')})", []
    moves = Move._meta.db_table
    return (f"{columns}, ({events_of_game_sql('g.id', after='%s')}), "
            f"(SELECT id FROM {moves} WHERE game_id = g.id AND number = %s)",
            [since.number, since.number])


def _locked(row: Sequence[Any], *, with_log: bool, since: log_cache.Entry | None) -> Locked:
    game = from_row(Game, row)
    extra = row[width(Game):]
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


def _seat_values(row: Sequence[Any]) -> tuple[Any, ...]:
    """(id, number, kind, player_name, vacation_until, missed_turns, absent_since,
    time_zone, quiet_from, quiet_to), the times read as aware datetimes from JSON's ISO
    text."""
    seat_id, number, kind, name, vacation, missed, absent, *clock = row
    return (seat_id, number, kind, name, _when(vacation), missed, _when(absent), *clock)


def _when(value: Any) -> datetime | None:
    when = value if value is None or isinstance(value, datetime) else parse_datetime(str(value))
    if when is not None and timezone.is_naive(when):
        when = timezone.make_aware(when, UTC)
    return when


@dataclass(frozen=True)
class _Columns:
    fields: tuple[models.Field, ...]  # type: ignore[type-arg]
    names: tuple[str, ...]  # quoted
    placeholders: tuple[str, ...]
    json: tuple[bool, ...]  # the value goes in as JSON text


@lru_cache(maxsize=16)
def _columns(model: type[models.Model], names: tuple[str, ...]) -> _Columns:
    """The fields of `names`, their quoted columns and placeholders, worked out once."""
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    fields = tuple(cast(models.Field, model._meta.get_field(name))  # type: ignore[type-arg]
                   for name in names)
    as_text = tuple(isinstance(field, models.JSONField) for field in fields)
    return _Columns(fields, tuple(quote(str(f.column)) for f in fields),
                    tuple(_json_placeholder(f) if text else "%s"
                          for f, text in zip(fields, as_text, strict=True)),
                    as_text)


def _json_placeholder(field: models.Field) -> str:  # type: ignore[type-arg]
    return "%s::json" if isinstance(field, VerbatimJSONField) else "%s::jsonb"


def _prepared(model: type[models.Model], names: Sequence[str],
              values: Sequence[Any]) -> tuple[_Columns, list[Any]]:
    """The columns and their values as the ORM would store them; the JSON fields' values
    as JSON text (games.kit.fields.json_text)."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself, not the proxy, in the loop
    columns = _columns(model, tuple(names))
    params = [json_text(value) if text else field.get_db_prep_save(value, db)
              for field, text, value in zip(columns.fields, columns.json, values,
                                            strict=True)]
    return columns, params


def _insert(model: type[models.Model], values: dict[str, Any]) -> tuple[str, list[Any]]:
    columns, params = _prepared(model, list(values), list(values.values()))
    return (f"INSERT INTO {model._meta.db_table} ({', '.join(columns.names)}) "
            f"VALUES ({', '.join(columns.placeholders)})", params)
