"""Django's PostgreSQL backend, with one change for the tests: the flush after each
transactional test (pytest-django's `transactional_db`, the browser tests, the races)
empties the tables with DELETE, not TRUNCATE.

TRUNCATE gives each of the 66 tables and their indexes new files: 2.3 s a flush here,
however few rows the test wrote; DELETE of those few rows takes some 20 ms. Django makes
every foreign key DEFERRABLE INITIALLY DEFERRED, and the flush runs in one transaction,
so the order of the DELETEs does not matter. A flush that resets sequences (a test's
`reset_sequences`) keeps TRUNCATE ... RESTART IDENTITY."""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style: Any, tables: Any, *, reset_sequences: bool = False,
                  allow_cascade: bool = False) -> list[str]:
        if reset_sequences or not tables:
            return super().sql_flush(style, tables, reset_sequences=reset_sequences,
                                     allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED",
                *(f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))}"
                  for table in tables)]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
