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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

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
        found = (*connection.ops.get_db_converters(column),
                 *field.get_db_converters(connection))  # type: ignore[attr-defined]
        if found:
            converters.append((slot, tuple(found), column))
        names.append(field.attname)
    return _Plan(tuple(names), tuple(converters))


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
