"""Rate limits (docs/api.md "Limits"): fixed windows counted in Django's cache.

The embedded default counts in the process's memory (one `runserver` process); production
points CACHE_URL at the Redis it already runs for Celery, so every gunicorn process and
machine shares the counts. Each limit is a number of events per window per key (a client
address, a seat, an email address, a user name); settings.RATE_LIMITS overrides any of
them by name, e.g. {"api_seat": [600, 60]}.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import time
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger("games")


@dataclass(frozen=True)
class Limit:
    count: int
    seconds: int


DEFAULTS: dict[str, Limit] = {
    # Games set up on the web page, per client address.
    "setup_client": Limit(5, 3600),
    # Tournaments asked for on /tournaments/new/, per client address, and their
    # confirmation emails per host's mailbox; created from a home, per home link.
    "event_client": Limit(5, 3600),
    "event_mailbox": Limit(3, 86400),
    "event_home": Limit(5, 86400),
    # Lessons started on /learn/, per client address (each is a game of three seats).
    "lesson_client": Limit(10, 3600),
    # "Email me my links", per client address and per asked address.
    "links_client": Limit(10, 3600),
    "links_address": Limit(3, 86400),
    # Standby signups and asking for a listed open seat, per client address.
    "standby_client": Limit(10, 3600),
    "seats_client": Limit(10, 3600),
    # The open-seats page, per client address (each page reads up to 20 games).
    "seats_page": Limit(60, 60),
    # Per seat: table talk, disputes, new links, and the JSON API (generous: a bot or a
    # script playing one seat polls a few times a second at most).
    "talk_seat": Limit(30, 600),
    "dispute_seat": Limit(10, 86400),
    "rotate_seat": Limit(5, 3600),
    "api_seat": Limit(600, 60),
    # Per home link: its JSON twin (like a seat's API), and new home links per address.
    "api_home": Limit(600, 60),
    "rotate_home": Limit(5, 3600),
    # Per home link: joining or leaving open tables, choosing a public name (like the
    # home's other forms: a person does a few a day, a script flooding them is stopped).
    "tables_home": Limit(30, 3600),
    "name_home": Limit(10, 3600),
    # Per home link: turning alerts on, changing and removing devices (games.push); per
    # client address: the service workers' receipts (two per alert: shown, clicked).
    "devices_home": Limit(60, 3600),
    "push_receipt": Limit(120, 60),
    # Per client address: home links pasted into a public page's "Challenge" button
    # (games.challenges.doors.player_challenge): a person does it a few times.
    "home_paste_client": Limit(20, 3600),
    # Per seat: muting and reporting table talk.
    "report_seat": Limit(10, 86400),
    # Failed admin logins, per user name and per client address: then locked out.
    "login_user": Limit(10, 900),
    "login_client": Limit(30, 900),
}


class Limited(Exception):
    """Too many events in this window: try again after `retry_after` seconds."""

    def __init__(self, name: str, retry_after: int) -> None:
        super().__init__(f"rate limit {name}: retry after {retry_after} s")
        self.name = name
        self.retry_after = retry_after


def limit(name: str) -> Limit:
    override = getattr(settings, "RATE_LIMITS", {}).get(name)
    return Limit(*override) if override else DEFAULTS[name]


def _slot(name: str, key: str, now: float) -> tuple[str, int]:
    rule = limit(name)
    window = int(now // rule.seconds)
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]  # no address or token in keys
    retry_after = max(1, int((window + 1) * rule.seconds - now))
    return f"rl:{name}:{digest}:{window}", retry_after


# What a cache that does not answer raises (Redis down, its connection refused or slow).
CACHE_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


def clock() -> float:
    """The limits' clock: the time in seconds (tests start it at a window's start)."""
    return time.time()


def hit(name: str, key: str) -> None:
    """Count one event for `key`; raise Limited when the window already holds its limit.
    A cache that does not answer counts nothing and limits nothing (logged): the limits
    guard the server, and a cache's outage must not take the games down with it."""
    now = clock()
    slot, retry_after = _slot(name, key, now)
    try:
        count = _count(slot, limit(name).seconds + 1)
    except CACHE_DOWN as error:
        log.warning("rate limit %s not counted: the cache does not answer (%s)", name,
                    type(error).__name__)
        return
    if count > limit(name).count:
        raise Limited(name, retry_after)


def _count(slot: str, timeout: int) -> int:
    """Add one to the slot's count (made, expiring after `timeout`, by its first event)."""
    backend = caches[DEFAULT_CACHE_ALIAS]  # `cache` is a proxy: isinstance needs this
    if isinstance(backend, RedisCache):
        # One round trip instead of Django's three (add; incr = EXISTS then INCR), on
        # every API request: SET NX EX makes the slot with its expiry, INCR counts, and
        # Django reads the plain integer back (check) as it stores integers unpickled.
        redis_key = backend.make_and_validate_key(slot)
        pipe = redis_client(_write_location()).pipeline(transaction=False)
        pipe.set(redis_key, 0, ex=timeout, nx=True)
        pipe.incr(redis_key)
        return int(pipe.execute()[1])
    # Count first: only a window's first event makes its slot (add), so every other one
    # costs the cache one operation, not two.
    try:
        return int(backend.incr(slot))
    except ValueError:  # no slot yet (or it just expired): this is the window's first event
        if backend.add(slot, 1, timeout=timeout):
            return 1
    try:
        return int(backend.incr(slot))  # another request made it first: count on it
    except ValueError:  # and it expired at once: this is the first event again
        backend.set(slot, 1, timeout=timeout)
        return 1


def _write_location() -> str:
    """The Redis URL the cache writes to: the first of its LOCATION (Django's RedisCache
    takes a list, or URLs separated by `,` or `;`, and writes to the first)."""
    location = settings.CACHES[DEFAULT_CACHE_ALIAS]["LOCATION"]
    return str(re.split("[;,]", location)[0] if isinstance(location, str) else location[0])


@functools.cache
def redis_client(url: str) -> redis.Redis:
    """redis-py's own client for the cache's Redis (the first LOCATION, where Django's
    RedisCache writes), one connection pool per process and URL (redis-py's pool makes
    new connections in a forked child). Django gives no public way to its client."""
    return redis.Redis.from_url(url)
