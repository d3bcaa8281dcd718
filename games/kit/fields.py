"""Model fields of our own."""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper


class VerbatimJSONField(models.JSONField):  # type: ignore[type-arg,unused-ignore]
    """JSON kept as the text it was written in: PostgreSQL's `json` type, not `jsonb`.

    For a log that is only ever appended and read back whole, never searched inside
    (Move.events): PostgreSQL stores the text as given instead of parsing it into jsonb,
    and reads it back as that text instead of printing jsonb anew, which on a late game's
    whole log was a third of a millisecond of the database's time per read.
    What `json` lacks (equality, indexes, jsonb's operators) no query of it needs. Other
    databases store JSON as text anyway: there the field is a JSONField."""

    def db_type(self, connection: BaseDatabaseWrapper) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def from_db_value(self, value: Any, expression: Any, connection: BaseDatabaseWrapper) -> Any:
        # psycopg parses a `json` column itself (Django reads only jsonb as text).
        if value is None or not isinstance(value, str | bytes):
            return value
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:  # e.g. an integer past 64 bits: as JSONField reads
            text = value.decode() if isinstance(value, bytes) else value
            return super().from_db_value(text, expression, connection)

    def get_db_prep_value(self, value: Any, connection: BaseDatabaseWrapper,
                          prepared: bool = False) -> Any:  # noqa: FBT001, FBT002 (Django's)
        adapted = super().get_db_prep_value(value, connection, prepared)
        if connection.vendor == "postgresql":
            from psycopg.types.json import Json, Jsonb

            if isinstance(adapted, Jsonb):
                # Sent as `json`: as jsonb, PostgreSQL would parse it, then print it back.
                return Json(adapted.obj, dumps=json_text)
        return adapted


def json_text(value: Any) -> str:
    """A JSON field's value as compact JSON text, by orjson (the standard library's
    json.dumps took 7% of a move), which also writes int dict keys as strings."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson does not write (an integer past 64 bits): as Django
        return json.dumps(value)
