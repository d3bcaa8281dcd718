"""Reads from a replica (games.kit.replica_reads; docs/operations.md "Reads from a
replica"): which pages read the replica, when a writer's pages stay on the primary, and
what a replica that lags, stops or fails midway costs (nothing but a warning).

The suite's `replica` alias is a test mirror of default (saboteur_site/test_settings.py):
the same database under a second connection, so which connection answered shows where a
page read. The tests that read pages commit for real (`committed`): a test in one
transaction keeps its reads on the primary, as production does inside a transaction."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.db import OperationalError, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.game.core.game import Game
from games.kit import replica_reads
from games.kit.replica_reads import ReplicaRouter, reads_from_replica
from tests.players.play import play_moves
from tests.support import GameWithLinks, make_game

committed = pytest.mark.django_db(transaction=True)
WINDOW = timedelta(seconds=6)  # past REPLICA_READ_YOUR_WRITES_SECONDS (5)


@pytest.fixture(autouse=True)
def fresh_look() -> Iterator[None]:
    """Each test starts with no look at the replica taken (a process-wide memory)."""
    replica_reads.look.forget()
    yield
    replica_reads.look.forget()


def reads(client: Client, path: str) -> tuple[int, int, Any]:
    """GET `path`: (queries the replica answered, not counting a look at its health;
    queries the primary answered; the response)."""
    with CaptureQueriesContext(connections["replica"]) as replica, \
            CaptureQueriesContext(connections["default"]) as primary:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    read = [q for q in replica.captured_queries
            if q["sql"] != "SELECT 1" and "pg_is_in_recovery" not in q["sql"]]
    return len(read), len(primary), response


def ended(clock: Any) -> GameWithLinks:
    """A game of three played to its end (148 moves: the shortest seed) at the clock's time."""
    g = make_game(players=3, seed=70, spectators_allowed=True)
    play_moves(g, seed=70)
    assert g.game.status == Game.Status.FINISHED
    return g


@committed
@pytest.mark.slow  # a whole game played: some 3 s
def test_a_finished_games_pages_read_the_replica_once_its_last_move_is_old(
        clock: Any) -> None:
    """Right after a game's last move every page of it reads the primary, whoever asks
    (the move's mark is the game's); a few seconds on, its finished seat page, replay,
    record and spectators' replay read the replica, the primary only finding the seat by
    its link with its game, which says whether it is over (or the game by its public id).
    The public lists read the replica alone; a game going on reads the primary."""
    g = ended(clock)
    client = Client()
    pages = {g.page(1): 1, g.page(0) + "replay/": 1, g.api(2) + "record": 1,
             f"/watch/{g.game.public_id}/replay/": 1}
    for path in pages:
        assert reads(client, path)[0] == 0, path
    clock.shift(WINDOW)
    for path, on_primary in pages.items():
        replica, primary, _ = reads(client, path)
        assert replica >= 4, path
        assert primary == on_primary, path
    # The lists of tables read the tables, then how many wait per language and pace.
    for path, queries in [("/ratings/", 1), ("/api/ratings/", 1), ("/tables/", 2),
                          ("/api/tables/", 2)]:
        assert reads(client, path)[:2] == (queries, 0), path
    assert reads(client, "/rules/base/")[:2] == (0, 0)  # opted in, and reads no row at all
    going_on = make_game(players=3, seed=5)
    replica, primary, _ = reads(client, going_on.page(0))
    assert (replica, primary > 5) == (0, True)


@committed
def test_a_browser_that_wrote_reads_the_primary_for_the_window(clock: Any) -> None:
    """Any POST answered here gives the browser a cookie with the time: for the window its
    reads stay on the primary wherever it goes (its new public name on the ratings, the
    table it joined), then the replica again; another browser reads the replica."""
    g = make_game(players=3, seed=4)
    client = Client()
    said = client.post(g.page(0) + "say", {"text": "good luck"})
    assert said.status_code == 302
    assert said.cookies[replica_reads.COOKIE]["max-age"] == 5
    assert reads(client, "/ratings/")[0] == 0
    assert reads(client, "/api/tables/")[0] == 0
    assert reads(Client(), "/ratings/")[0] == 1
    clock.shift(WINDOW)
    assert reads(client, "/ratings/")[0] == 1


@committed
def test_reads_in_a_transaction_and_every_write_go_to_the_primary(clock: Any) -> None:
    g = make_game(players=3, seed=4)
    with CaptureQueriesContext(connections["replica"]) as replica, \
            CaptureQueriesContext(connections["default"]) as primary, \
            reads_from_replica() as on:
        assert on
        game = Game.objects.get(pk=g.game.pk)  # the replica's
        with transaction.atomic():
            Game.objects.get(pk=g.game.pk)  # the primary's: a transaction is open
        game.name = "Renamed"
        game.save(update_fields=["name"])  # a row read from the replica, saved
        Game.objects.filter(pk=g.game.pk).update(name="Again")
        assert not Session.objects.exists()  # the request's own state: the primary's
    assert [q["sql"].split()[0] for q in replica.captured_queries] == ["SELECT", "SELECT"]
    assert "games_game" in replica.captured_queries[1]["sql"]  # the look, then the game
    assert sum(q["sql"].startswith("UPDATE") for q in primary.captured_queries) == 2
    assert any("django_session" in q["sql"] for q in primary.captured_queries)
    assert sum("games_game" in q["sql"] and q["sql"].startswith("SELECT")
               for q in primary.captured_queries) == 1
    with transaction.atomic(), reads_from_replica() as on:
        assert not on  # opened inside a transaction: the replica is not even asked
    router = ReplicaRouter()
    assert router.db_for_read(Game) == "default"  # outside an opt-in
    assert router.db_for_write(Game) == "default"
    assert router.allow_migrate("default", "games")
    assert not router.allow_migrate("replica", "games")  # the primary's WAL makes its tables


def failing_replica(*_args: Any) -> Any:
    raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")


@committed
def test_a_replica_that_does_not_answer_leaves_the_pages_to_the_primary(
        clock: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    asked: list[int] = []

    def down() -> float:
        asked.append(1)
        return failing_replica()

    monkeypatch.setattr(replica_reads, "_ask_lag", down)
    client = Client()
    with caplog.at_level(logging.WARNING, logger="games.kit.replica_reads"):
        for path in ["/ratings/", "/api/ratings/", "/tables/"]:
            assert reads(client, path)[0] == 0
    assert len(asked) == 1  # not asked again for LEAVE_ALONE seconds
    assert "the replica does not answer (OperationalError); reading from the primary" in (
        caplog.text)
    monkeypatch.undo()
    clock.shift(timedelta(seconds=replica_reads.LEAVE_ALONE))
    assert reads(client, "/ratings/")[0] == 1  # asked again: it answers, and is read


@committed
def test_a_replica_that_fails_midway_costs_the_page_nothing(
        clock: Any, caplog: pytest.LogCaptureFixture) -> None:
    """A query on the replica fails in the middle of a page (the replica stopped, or its
    recovery cancelled the query): the page is read again from the primary, the same
    answer, and the replica is left alone a while."""
    make_game(players=3, seed=4)
    client = Client()
    expected = client.get("/api/tables/").json()
    failures: list[str] = []

    def fail_on_tables(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        if "games_" in sql:
            failures.append(sql)
            failing_replica()
        return execute(sql, *args)

    with caplog.at_level(logging.WARNING, logger="games.kit.replica_reads"), \
            connections["replica"].execute_wrapper(fail_on_tables):
        tables = client.get("/api/tables/")
        assert (tables.status_code, tables.json()) == (200, expected)
        assert reads(client, "/ratings/")[0] == 0  # left alone meanwhile
    assert len(failures) == 1
    assert "a read on the replica failed (OperationalError)" in caplog.text


def test_a_failure_of_the_primarys_own_is_neither_read_again_nor_blamed_on_the_replica(
) -> None:
    tries: list[int] = []

    def page() -> None:  # reads nothing from the replica, and fails
        tries.append(1)
        failing_replica()

    with pytest.raises(OperationalError):
        reads_from_replica().run(page)
    assert tries == [1]
    assert replica_reads.look.until == 0  # never looked at, never left alone


@pytest.mark.parametrize(("lag", "on"), [(0.0, True), (2.5, True), (2.6, False), (None, False)])
def test_a_replica_behind_by_more_than_half_the_window_is_left_alone(
        clock: Any, monkeypatch: pytest.MonkeyPatch, lag: float | None, on: bool) -> None:
    """Half the window (5 s): a writer whose marks expired then finds a replica that has
    its write. A standby no WAL receiver streams to (None) stopped where the stream did."""
    monkeypatch.setattr(replica_reads, "_ask_lag", lambda: lag)
    with reads_from_replica():
        assert ReplicaRouter().db_for_read(Game) == ("replica" if on else "default")
