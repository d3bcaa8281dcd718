"""A throwaway database for a bench script: a PostgreSQL database created and dropped
(127.0.0.1:5432, trust auth), or a SQLite file under var/ removed afterwards."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def throwaway_database(label: str, *, postgres: bool,
                       keep_url: bool = False) -> Callable[[], None]:
    """Point DATABASE_URL at a new database named for `label`; returns how to clean it
    up. `keep_url`: on SQLite, a DATABASE_URL already set is used as it is."""
    os.environ.setdefault("DEBUG", "1")
    if postgres:
        import psycopg

        name = f"saboteur_bench_{label}_{os.getpid()}"
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"

        def drop() -> None:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(ADMIN, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

        return drop
    if keep_url and "DATABASE_URL" in os.environ:
        return lambda: None
    path = ROOT / "var" / f"bench-{label}.sqlite3"
    path.parent.mkdir(exist_ok=True)

    def remove() -> None:
        for old in path.parent.glob(path.name + "*"):
            old.unlink()

    remove()
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    return remove
