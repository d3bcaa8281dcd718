"""Model instances from the rows of a plain statement, for the few statements every move
or API request runs (the seat lookup, the move's locked read).

`Model.objects.raw()` works out, on every call, which column is which field and what
converts each value, and reads the cursor's description to do so; that is a good part of
a request measured in tenths of a millisecond. Here the statement names the model's
columns itself (`column_list`, in the model's field order), what converts them is
worked out once per (model, database vendor), and the values go through exactly the
converters the ORM would apply (the backend's and each field's own `from_db_value`), so
an instance equals the one the ORM would build.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, TypeVar, cast

import orjson
from django.db import DEFAULT_DB_ALIAS, connections, models

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Plan:
    field_names: tuple[str, ...]  # attnames in the model's concrete field order
    converters: tuple[tuple[int, tuple[Converter, ...], Any], ...]  # (slot, converters, col)


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
    return _Plan(tuple(names), tuple(converters))


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
    return model.from_db(db.alias, plan.field_names, values)


class Cursor(Protocol):
    rowcount: int

    def execute(self, sql: str, params: Sequence[Any] = ...) -> object: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


@contextmanager
def hot_cursor() -> Iterator[Cursor]:
    """A cursor for the statements every move runs.

    On PostgreSQL it binds parameters on the server (Django's cursors bind them in the
    client, quoting every value into the SQL text), so psycopg prepares a statement once
    it has run a few times on a connection (its prepare_threshold) and PostgreSQL plans it
    once per connection instead of on every move. It is opened through Django's own
    cursor (the connection's health check, errors wrapped as Django's) and its statements
    are logged where Django logs queries (DEBUG, tests' CaptureQueriesContext)."""
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as django_cursor:
        if db.vendor != "postgresql":
            yield django_cursor
            return
        with db.wrap_database_errors, _binary_cursor(django_cursor.cursor.connection) as raw:
            yield cast(Cursor, _Logged(raw, db) if db.queries_logged else raw)


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
