"""One write that a unique constraint may refuse, without the transaction a savepoint
costs when none is needed.

    unless_taken(write) -> its result, or None when a unique constraint refused it

Inside a transaction the write runs in a savepoint, so the transaction goes on after the
refusal (as `get_or_create` does). In autocommit the single statement is its own
transaction: a refusal leaves nothing behind, and a savepoint would only wrap it in
BEGIN and COMMIT (two more statements for every reply and answer by email).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, transaction

T = TypeVar("T")


def unless_taken(write: Callable[[], T]) -> T | None:
    """`write()` (one INSERT or UPDATE), or None when the database refused it
    (IntegrityError: the unique value is taken)."""
    try:
        if transaction.get_connection().in_atomic_block:
            with transaction.atomic():
                return write()
        return write()
    except IntegrityError:
        return None
