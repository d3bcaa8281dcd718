"""Fixtures for the server tests (tests/engine/ has its own)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.db.models.signals import post_migrate
from django.test import TestCase, TransactionTestCase
from hypothesis import settings

from tests.moderation_support import moderators_group
from tests.push.standin import StandIn
from tests.push.standin import start as start_standin
from tests.support import START, GameWithLinks, make_game, queued_tasks, work_off


def _moderators_group_again(sender: Any, **_kwargs: Any) -> None:
    """A transaction test's flush (the browser's, the real threads') drops the rows data
    migrations made, and sends post_migrate as `migrate` does: the moderators group is
    made again then, as migration 0003 makes it, for whichever test comes next."""
    if getattr(sender, "name", "") == "games":
        moderators_group()


# The suite is a gate: every run draws the same examples, so a landing never fails on an
# example no earlier run met. HYPOTHESIS_PROFILE=explore draws new ones (then keep any
# failure it finds as an @example).
settings.register_profile("gate", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "gate"))

post_migrate.connect(_moderators_group_again, weak=False,
                     dispatch_uid="tests-moderators-group-again")

# The `replica` alias is a test mirror of default (saboteur_site/test_settings.py): the
# same database, which every transactional test may read through (pytest-django allows
# only "default" unless told). A test in one transaction never reads it (its reads stay
# on the primary), and must not open a transaction of its own on it: on SQLite the two
# would lock each other out.
TransactionTestCase.databases = {"default", "replica"}
TestCase.databases = {"default"}


@pytest.fixture(autouse=True)
def fresh_rate_limits(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Rate limits count in the cache (games.kit.limits): every test starts at zero, at
    the start of a day's window, so of every window (a minute, an hour and the others
    divide a day): a test's requests never straddle two windows on a slow machine. The
    limits' clock still moves with the real one and with time-machine."""
    from django.core.cache import cache

    from games.kit import limits
    cache.clear()
    shift = time.time() % 86400
    monkeypatch.setattr(limits, "clock", lambda: time.time() - shift)


@pytest.fixture(autouse=True)
def fresh_log_cache() -> Any:
    """Each test starts with no remembered game log, nor any seat's log text (ids may be
    reused after a flush)."""
    from games.moves.core import log_cache
    from games.seatview.core import log_json, remembered_sentences

    log_cache.clear()
    log_json.clear()
    remembered_sentences.clear()
    yield
    log_cache.clear()
    log_json.clear()
    remembered_sentences.clear()


@pytest.fixture(autouse=True)
def default_language() -> Any:
    """Each test starts in English: a request in another language (LocaleMiddleware
    activates it for the thread) must not leak into the next test's words."""
    from django.utils import translation
    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture
def game_factory(db: None) -> Callable[..., GameWithLinks]:
    return make_game


@pytest.fixture
def game(db: None) -> GameWithLinks:
    """A 3-seat game (seed 1) started at once: no seat has accepted yet (a seat's first
    move or form takes it, games.moves.services.moves)."""
    return make_game(players=3, seed=1, start=True)


@pytest.fixture(autouse=True)
def empty_broker() -> Any:
    """Every test starts with no task waiting in the (in-memory) broker."""
    queued_tasks()
    return


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any) -> Any:
    """`with commit():` the block's transaction commits (its on-commit callbacks run), then
    the worker and the beat do what they would: every task queued runs, and the moves'
    emails are planned (tests.support.work_off). `commit(worker=False)`: only the commit,
    the tasks stay queued."""

    @contextmanager
    def committed(*, worker: bool = True) -> Iterator[Any]:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            yield callbacks
        if worker:
            work_off(django_capture_on_commit_callbacks)

    return committed


@pytest.fixture
def clock() -> Any:
    """Time stands still at START until a test moves it (never sleep)."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked `migrations` replays a data migration through the migration history,
    which a database made from the models (`--no-migrations`) has not got."""
    if item.get_closest_marker("migrations") and item.config.getoption("nomigrations"):
        pytest.skip("a database made without migrations: the run with migrations (run.py "
                    "test's PostgreSQL leg) replays this one")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each xdist worker's share of the long tests (whole games, self-play) first, and its
    browser tests spread evenly through it.

    `--dist worksteal` gives each of N workers a contiguous Nth of the list and lets an
    idle one take the end of a busy one's queue. Left in the files' order, the long tests
    sit together in one worker's share and end the run alone; dealt round-robin into N
    shares, each share led by its long tests, every worker starts on its own and the short
    tests at the ends fill the gaps. A browser test keeps a core busy about half its time
    (the page and the server take turns, and wait on the worker and the page's clock):
    all workers in the browser tests at once, as in the files' order, left a core of
    two idle for minutes; spread through each share, they overlap the others' work."""
    count = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if count < 2:
        return
    in_browser = [item for item in items if BROWSER in item.path.parents]
    others = [item for item in items if BROWSER not in item.path.parents]
    long_ones = [item for item in others if item.get_closest_marker("slow")]
    short_ones = [item for item in others if not item.get_closest_marker("slow")]
    shares: list[list[pytest.Item]] = [[] for _ in range(count)]
    pages: list[list[pytest.Item]] = [[] for _ in range(count)]
    for group, into in ((long_ones, shares), (short_ones, shares), (in_browser, pages)):
        for index, item in enumerate(group):
            into[index % count].append(item)
    items[:] = [item for share, page in zip(shares, pages, strict=True)
                for item in spread(page, share)]


BROWSER = Path(__file__).parent / "browser"


def spread(few: list[pytest.Item], many: list[pytest.Item]) -> list[pytest.Item]:
    """`many` in order with `few` in order among them at even intervals."""
    merged: list[pytest.Item] = []
    placed = 0
    for index, item in enumerate(many):
        merged.append(item)
        while placed < len(few) and placed * len(many) <= index * len(few):
            merged.append(few[placed])
            placed += 1
    return merged + few[placed:]


@pytest.fixture
def standin() -> Iterator[StandIn]:
    """The stand-in push service on loopback (tests/push/standin.py), for the push tests
    and the browser's turn alert."""
    service = start_standin()
    yield service
    service.server.shutdown()
    service.server.server_close()
