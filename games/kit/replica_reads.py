"""Reads from a streaming replica where a page opted in (docs/operations.md "Reads from a
replica"): the opt-in `reads_from_replica`, the marks of recent writes that keep their
writers on the primary, the database router and the middleware that remembers a
browser's writes.

With DATABASE_REPLICA_URL unset there is no `replica` alias and no router: nothing here
does anything (`wrote` returns at once, every read goes to the one database).

With a replica, every write, and every read outside an opt-in, goes to the primary
(`default`). Reads inside `reads_from_replica(*marks)` go to the replica unless:
- a transaction is open on the primary (what it reads must agree with what it writes);
- one of `marks` (a game: `game_mark`) was written within REPLICA_READ_YOUR_WRITES_SECONDS,
  recorded in the shared cache when the write committed (`wrote`; the move service
  marks the game of every move, whoever made it);
- the browser asking wrote anything within that window (a POST, PUT, PATCH or DELETE
  answered here: `RememberWrites` gives it a cookie saying when);
- the replica is behind by more than half the window, or does not answer (asked at most
  once a second per process; a failure is logged and the replica left alone a while);
- the rows are the request's own state (sessions).
Why half the window is enough: the lag was measured under W/2 at most a second ago and
cannot grow faster than the clock, so a read more than W after a write's commit finds a
replica at most W/2 + 1 seconds behind, which has the write when W >= 2.

A replica that fails in the middle of a page costs the page nothing: `run` (and the
decorator) reads the page again from the primary. Only read-only views opt in (a GET
changes nothing but bookkeeping), so reading one twice is harmless."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import partial, wraps
from typing import Any, ParamSpec, Protocol, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, Error, connections, transaction
from django.db.models import Model
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

REPLICA = "replica"
# Rows that are the request's own state, read from the primary even inside an opt-in.
PRIMARY_ONLY_APPS = frozenset({"sessions"})
LOOK_EVERY = 1.0  # seconds between two looks at the replica's lag, per process
LEAVE_ALONE = 30.0  # seconds a replica that failed is not asked again, per process
COOKIE = "wrote"  # when this browser last wrote (a Unix time): its reads stay on the primary
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

P = ParamSpec("P")
T = TypeVar("T")

# Whether the reads of the code running now may go to the replica (reads_from_replica).
_reading: ContextVar[bool] = ContextVar("replica_reading", default=False)
# Whether a read was sent to the replica since the last opt-in began (ReplicaRouter).
_routed: ContextVar[bool] = ContextVar("replica_routed", default=False)
# Whether the browser of the request being answered wrote within the window (RememberWrites).
_client_wrote: ContextVar[bool] = ContextVar("replica_client_wrote", default=False)


def configured() -> bool:
    return REPLICA in settings.DATABASES


def window() -> int:
    """REPLICA_READ_YOUR_WRITES_SECONDS: how long a writer's reads stay on the primary."""
    return int(settings.REPLICA_READ_YOUR_WRITES_SECONDS)


# ---- marks of recent writes ---------------------------------------------------------------


def game_mark(game_id: int) -> str:
    return f"game:{game_id}"


def _cache_key(mark: str) -> str:
    return f"replica-wrote:{mark}"


def wrote(*marks: str) -> None:
    """Remember that `marks` were written now, once the current transaction commits (at
    once outside one; never for one rolled back). A cache that does not answer then costs
    the write nothing (robust): its answer has left already."""
    if marks and configured():
        transaction.on_commit(partial(_remember, marks), robust=True)


def _remember(marks: tuple[str, ...]) -> None:
    cache.set_many({_cache_key(mark): 1 for mark in marks}, timeout=window())


def recently_wrote(*marks: str) -> bool:
    """Whether any of `marks` was written within the window."""
    return bool(marks) and bool(cache.get_many([_cache_key(mark) for mark in marks]))


# ---- the replica's health: asked at most once a second per process --------------------------


class Cursor(Protocol):
    def execute(self, sql: str) -> object: ...

    def fetchone(self) -> Any: ...


# Seconds the standby is behind, as it sees it: 0 when it has replayed all it received from
# a live stream (or is no standby at all), NULL when no WAL receiver streams to it (its
# data would stop where the stream did). A user without pg_read_all_stats sees the
# receiver's row with its status hidden (NULL): its being there is enough.
LAG_SQL = """
SELECT CASE
    WHEN NOT pg_is_in_recovery() THEN 0.0
    WHEN NOT EXISTS (SELECT 1 FROM pg_stat_wal_receiver
                     WHERE status IS NULL OR status = 'streaming') THEN NULL
    WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0.0
    ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8
END
"""


def replica_lag(cursor: Cursor) -> float | None:
    """How many seconds a PostgreSQL standby is behind (LAG_SQL); None: not streaming."""
    cursor.execute(LAG_SQL)
    row = cursor.fetchone()
    return None if row is None or row[0] is None else max(0.0, float(row[0]))


class Look:
    """This process's last look at the replica: usable or not, until when."""

    def __init__(self) -> None:
        self.usable = False
        self.until = 0.0  # time.time() until which the look holds
        self.lag: float | None = None
        self.lock = threading.Lock()

    def forget(self) -> None:
        with self.lock:
            self.usable, self.until, self.lag = False, 0.0, None


look = Look()


def replica_usable() -> bool:
    """Whether the replica answers and is less than half the window behind (looked at
    again when the last look is more than LOOK_EVERY seconds old)."""
    now = time.time()
    if now < look.until:
        return look.usable
    with look.lock:
        if now < look.until:
            return look.usable
        was = look.usable
        try:
            lag = _ask_lag()
        except Error as error:
            look.usable, look.lag, look.until = False, None, now + LEAVE_ALONE
            log.warning("the replica does not answer (%s); reading from the primary, "
                        "asking again in %.0f s", type(error).__name__, LEAVE_ALONE)
            return False
        look.lag, look.until = lag, now + LOOK_EVERY
        look.usable = lag is not None and lag <= window() / 2
        if was and not look.usable:
            log.warning("the replica is %s; reading from the primary",
                        "not streaming" if lag is None else f"{lag:.1f} s behind")
        return look.usable


def _ask_lag() -> float | None:
    replica = connections[REPLICA]
    with replica.cursor() as cursor:
        if replica.vendor != "postgresql":  # a test mirror on SQLite: the same database
            cursor.execute("SELECT 1")
            return 0.0
        return replica_lag(cursor)


def _replica_failed(error: Error) -> None:
    """A read on the replica failed mid-page: leave it alone a while, drop its connection."""
    with look.lock:
        look.usable, look.lag, look.until = False, None, time.time() + LEAVE_ALONE
    log.warning("a read on the replica failed (%s); the page is read again from the "
                "primary, the replica left alone for %.0f s", type(error).__name__, LEAVE_ALONE)
    connections[REPLICA].close()


# ---- the opt-in -----------------------------------------------------------------------------


def may_read_replica(*marks: str) -> bool:
    """Whether reads here may go to the replica (the module's docstring): whether it is
    usable is asked by the first read that would go there (a page that reads no row
    never asks)."""
    if not configured() or connections[DEFAULT_DB_ALIAS].in_atomic_block:
        return False
    return not (_client_wrote.get() or recently_wrote(*marks))


class ReplicaReads:
    """`with reads_from_replica(*marks):` or `@reads_from_replica(*marks)`; see there."""

    def __init__(self, marks: tuple[str, ...]) -> None:
        self.marks = marks
        self._tokens: list[Token[bool]] = []

    def __enter__(self) -> bool:
        on = may_read_replica(*self.marks)  # still on the primary while the replica lags
        self._tokens.append(_reading.set(on))
        return on

    def __exit__(self, *exc_info: object) -> None:
        _reading.reset(self._tokens.pop())

    def run(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`func(*args, **kwargs)` reading from the replica where allowed; read again from
        the primary if the replica fails meanwhile."""
        with self:
            routed = _routed.set(False)
            try:
                return func(*args, **kwargs)
            except Error as error:
                if not _routed.get():  # the primary's own failure: nothing to read again
                    raise
                failed = error
            finally:
                _routed.reset(routed)
        _replica_failed(failed)
        with primary_reads():
            return func(*args, **kwargs)

    def __call__(self, func: Callable[P, T]) -> Callable[P, T]:
        @wraps(func)
        def replica_first(*args: P.args, **kwargs: P.kwargs) -> T:
            return self.run(func, *args, **kwargs)
        return replica_first


def reads_from_replica(*marks: str) -> ReplicaReads:
    """Reads of finished or public data, from the replica where allowed: unless one of
    `marks` (`game_mark(id)`) or the asking browser wrote within the window, a transaction
    is open, or the replica is behind or down. A context manager (`with ... as on:` tells
    whether it may read the replica: whether the replica is usable, the first read there
    asks), or a view's decorator; the decorator and `run` read the view again from the
    primary when the replica fails midway."""
    return ReplicaReads(marks)


@contextmanager
def primary_reads() -> Iterator[None]:
    token = _reading.set(False)
    try:
        yield
    finally:
        _reading.reset(token)


# ---- the router (DATABASE_ROUTERS, set with the replica) --------------------------------------


class ReplicaRouter:
    """Writes and migrations on the primary; reads on the replica only inside an opt-in,
    outside a transaction (checked at each read: an opt-in may open one) and while the
    replica is usable."""

    def db_for_read(self, model: type[Model], **_hints: object) -> str:
        if (_reading.get() and model._meta.app_label not in PRIMARY_ONLY_APPS
                and not connections[DEFAULT_DB_ALIAS].in_atomic_block
                and replica_usable()):
            _routed.set(True)
            return REPLICA
        # Said outright: a row read from the replica names it as its database, and Django
        # would send that row's related reads there without a router's answer.
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model: type[Model], **_hints: object) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, _obj1: Model, _obj2: Model, **_hints: object) -> bool:
        return True  # the replica is the primary's copy: rows of both may point at each other

    def allow_migrate(self, db: str, _app_label: str, **_hints: object) -> bool:
        return db == DEFAULT_DB_ALIAS  # the replica gets its tables from the primary's WAL


# ---- a browser's own writes (MIDDLEWARE, set with the replica) -------------------------------


class RememberWrites:
    """A browser that wrote (any POST, PUT, PATCH or DELETE answered here) gets a cookie
    with the time; for the window after it, its reads stay on the primary wherever it
    goes (its public name on /ratings/, the table it just joined on /tables/). The cookie
    holds a time and nothing else: forged, it only sends its own reads to the primary."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _client_wrote.set(_wrote_lately(request.COOKIES.get(COOKIE, "")))
        try:
            response = self.get_response(request)
        finally:
            _client_wrote.reset(token)
        if request.method in UNSAFE:
            response.set_cookie(COOKIE, str(int(time.time())), max_age=window(),
                                secure=settings.SESSION_COOKIE_SECURE, httponly=True,
                                samesite="Lax")
        return response


def _wrote_lately(value: str) -> bool:
    try:
        when = int(value)
    except ValueError:
        return False
    return 0 <= time.time() - when <= window()
