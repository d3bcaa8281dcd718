"""The move path's two stores read and write exactly the same: the fast one (PostgreSQL's
plain statements) is held to the ORM reference — the instances it builds, the locked
read's game, seats and log, the rows a move writes — and a move's answer shows the state
as stored, in JSON that means what Django's means."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models.signals import post_init
from django.http import JsonResponse
from django.test import Client
from django.utils.translation import gettext_lazy

from games import engine
from games.game.core.follow_up_rows import FollowUp
from games.game.core.game import Game, Move
from games.kit.json_answer import JsonAnswer
from games.moderation import services as moderation
from games.moves.core import log_cache
from games.moves.services.move_store import Locked, MoveStore, OrmMoveStore
from games.people.core.mailboxes import mailbox_key_hash
from games.seats.core.seat import Seat
from tests.email_support import dig
from tests.moderation_support import make_moderator
from tests.support import GameWithLinks, make_game, seat_move

# Both stores on PostgreSQL: `run.py test` runs this file there too when one answers.
pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def field_values(instance: Game | Seat) -> dict[str, object]:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def play(g: GameWithLinks, moves: int) -> Game:
    rng = random.Random(5)
    for _ in range(moves):
        game = g.refresh()
        state = game.state()
        assert state.actor is not None
        seat_move(g.seats[state.actor], game.version,
                             dig(engine.legal_moves(state), rng))
    return g.refresh()


def fast_store() -> Any:
    if connection.vendor != "postgresql":
        pytest.skip("the fast store is PostgreSQL's (SQLite runs the reference)")
    from games.moves.services import fast_move_store

    return fast_move_store


def seat_rows(fast: Any, game_id: int) -> list[Any]:
    """The game's seats as the fast store's column list reads them, in seat order."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {fast.column_list(Seat, 's')} FROM games_seat s "  # noqa: S608
                       "WHERE game_id = %s ORDER BY number", [game_id])
        return list(cursor.fetchall())


def post_api_move(client: Client, g: GameWithLinks,
                  rng: random.Random) -> tuple[int, int, Any]:
    """A move chosen by `rng` through the API link of the seat to act: (the version it
    was sent at, that seat, the answer)."""
    game = g.refresh()
    version, state = game.version, game.state()
    assert state.actor is not None
    answer = client.post(f"/api/play/{g.tokens[state.actor]}/moves",
                         {"version": version, "move": dig(engine.legal_moves(state), rng)},
                         content_type="application/json")
    return version, state.actor, answer


def test_the_fast_store_builds_the_instances_the_orm_builds() -> None:
    fast = fast_store()
    g = make_game(players=3, seed=4, start=True)
    Seat.objects.filter(pk=g.seats[1].pk).update(
        vacation_until=datetime(2031, 1, 2, 3, 4, 5, 678901, tzinfo=UTC))
    Game.objects.filter(pk=g.game.pk).update(deadline_extension=timedelta(hours=5))
    game = play(g, 7)
    # Past orjson's 64 bits: the JSONField's own converter reads it, as the ORM does.
    Game.objects.filter(pk=game.pk).update(options={**game.options, "big": 2**70})
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {fast.column_list(Game)} FROM games_game WHERE id = %s",  # noqa: S608
                       [game.pk])
        built = fast.from_row(Game, cursor.fetchone())
    seats = [fast.from_row(Seat, row) for row in seat_rows(fast, game.pk)]
    assert field_values(built) == field_values(Game.objects.get(pk=game.pk))
    assert [field_values(s) for s in seats] == [
        field_values(s) for s in Seat.objects.filter(game=game).order_by("number")]
    assert not built._state.adding and built._state.db == "default"


def test_a_post_init_receiver_sees_every_instance_the_fast_store_builds() -> None:
    """The fast store sets a plain model's attributes straight into the instance, which
    skips Model.__init__: it must not while anything listens to the init signals."""
    fast = fast_store()
    g = make_game(players=3, seed=4, start=True)
    seen: list[Seat] = []

    def note(sender: type[Seat], instance: Seat, **kwargs: object) -> None:
        seen.append(instance)

    rows = seat_rows(fast, g.game.pk)
    post_init.connect(note, sender=Seat)
    try:
        built = [fast.from_row(Seat, row) for row in rows]
    finally:
        post_init.disconnect(note, sender=Seat)
    assert seen == built and len(built) == 3
    assert [field_values(s) for s in built] == [
        field_values(s) for s in Seat.objects.filter(game=g.game).order_by("number")]


def stores() -> list[MoveStore]:
    """The reference, and on PostgreSQL the fast store held to it."""
    found: list[MoveStore] = [OrmMoveStore()]
    if connection.vendor == "postgresql":
        from games.moves.services.fast_move_store import FastMoveStore

        found.append(FastMoveStore())
    return found


def locked_facts(locked: Locked) -> tuple[object, ...]:
    return (field_values(locked.game), locked.log,
            [(s.id, s.number, s.kind, s.player_name, s.vacation_until, s.missed_turns,
              s.absent_since) for s in locked.seats.values()])


def test_every_store_reads_the_same_game_seats_and_log() -> None:
    g = make_game(players=4, seed=6, start=True)
    when = datetime(2031, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    Seat.objects.filter(pk=g.seats[2].pk).update(vacation_until=when, missed_turns=2,
                                                 absent_since=when)
    game = play(g, 12)
    expected = (field_values(game), game.state().log, list(
        Seat.objects.filter(game=game).order_by("number").values_list(
            "id", "number", "kind", "player_name", "vacation_until", "missed_turns",
            "absent_since")))
    for store in stores():
        with transaction.atomic():
            assert locked_facts(store.lock_game(game.pk, with_log=True)) == expected
            assert store.lock_game(game.pk).log is None
            seat, by_link = store.lock_by_link(g.tokens[2], with_log=True) or (None, None)
        assert seat is not None and seat.pk == g.seats[2].pk and by_link is not None
        assert locked_facts(by_link) == expected
        with transaction.atomic():
            assert store.lock_by_link("x" * 43) is None


def test_every_store_writes_the_same_rows_for_the_same_moves(
        settings: Any, client: Client) -> None:
    """Two twin games, the same moves through the API: one on the reference store, one on
    the fast one; the rows written and every answer are the same."""
    if connection.vendor != "postgresql":
        pytest.skip("one store on SQLite")
    twins = {kind: make_game(players=3, seed=11, start=True) for kind in ("orm", "fast")}
    rng = random.Random(11)
    for _ in range(15):
        state = twins["orm"].refresh().state()
        assert state.actor is not None
        move = dig(engine.legal_moves(state), rng)
        answers = {}
        for kind, g in twins.items():
            settings.MOVE_STORE = kind
            answer = client.post(f"/api/play/{g.tokens[state.actor]}/moves",
                                 {"version": g.refresh().version, "move": move},
                                 content_type="application/json")
            assert answer.status_code == 200
            answers[kind] = answer.json()
        assert answers["orm"]["view"] == answers["fast"]["view"]
        assert answers["orm"]["players"] == answers["fast"]["players"]
    rows = {kind: list(Move.objects.filter(game=g.game).order_by("number").values_list(
        "number", "actor_kind", "seat_number", "move", "events")) for kind, g in twins.items()}
    assert rows["orm"] == rows["fast"] and len(rows["orm"]) == 15
    games = {kind: g.refresh() for kind, g in twins.items()}
    assert games["orm"].snapshot == games["fast"].snapshot
    assert games["orm"].version == games["fast"].version == 15
    follow_ups = {kind: sorted(FollowUp.objects.filter(game=g.game)
                               .values_list("version", flat=True))
                  for kind, g in twins.items()}
    assert follow_ups["orm"] == follow_ups["fast"]


def test_a_moves_events_are_kept_as_the_text_written() -> None:
    """Move.events is PostgreSQL `json` (the text as written, read back as is), and the ORM
    reads and writes it like any JSONField, on every database."""
    g = make_game(players=3, seed=4, start=True)
    game = play(g, 5)
    move = Move.objects.filter(game=game).order_by("number").last()
    assert move is not None and move.events and move.events[0]["seat"] in range(3)
    written = [{"type": "pass", "seat": 1, "count": 1, "note": "é ⛏", "big": 2**70}]
    Move.objects.filter(pk=move.pk).update(events=written)
    move.refresh_from_db()
    assert move.events == written
    move.events = [{"type": "pass", "seat": 2}]
    move.save(update_fields=["events"])
    assert Move.objects.get(pk=move.pk).events == [{"type": "pass", "seat": 2}]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_typeof(events)::text, events::text FROM games_move "
                           "WHERE game_id = %s ORDER BY number", [game.pk])
            found = cursor.fetchall()
        assert {kind for kind, _text in found} == {"json"}
        # The move path's compact text, not jsonb's reprint ('", "' between keys).
        assert all('", "' not in text for _kind, text in found[:-1])


def test_a_move_writes_entries_only_in_the_indexes_queries_use() -> None:
    """Every move writes its game's row anew, with an entry in each index: the games table
    has the indexes its queries use (hosting looks hosts up by their mailbox key), no
    LIKE-only twins, and the optional columns' indexes skip the rows without a value."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's indexes")
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename, indexname, indexdef FROM pg_indexes "
                       "WHERE tablename IN ('games_game', 'games_move')")
        found = {(table, name): sql for table, name, sql in cursor.fetchall()}
    assert sorted(name for table, name in found if table == "games_game") == [
        "game_host_key", "game_host_token_unique", "game_one_rematch",
        "game_public_id_unique", "game_status_deadline", "game_status_id",
        "game_status_reminder", "game_status_turn", "game_status_updated",
        "game_unconfirmed_host", "games_game_pkey"]
    assert sorted(name for table, name in found if table == "games_move") == [
        "games_move_pkey", "move_moderator", "move_unique_number"]
    assert "WHERE (NOT ((host_key)::text = ''::text))" in found["games_game", "game_host_key"]
    assert "WHERE (host_token_hash IS NOT NULL)" in found["games_game", "game_host_token_unique"]
    assert "WHERE (rematch_of_id IS NOT NULL)" in found["games_game", "game_one_rematch"]
    assert "WHERE (moderator_id IS NOT NULL)" in found["games_move", "move_moderator"]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a test's table is tiny
    plan = Game.objects.filter(host_key=mailbox_key_hash("Host@Example.com")).explain()
    assert "game_host_key" in plan


def test_a_moves_answer_shows_the_state_as_stored(client: Client) -> None:
    """The API answers from the state the move made (nothing read again): it must be
    the state the database holds afterwards, log and players included."""
    g = make_game(players=3, seed=8, start=True)
    game = play(g, 9)
    state = game.state()
    assert state.actor is not None
    move = dig(engine.legal_moves(state), random.Random(1))
    answer = client.post(f"/api/play/{g.tokens[state.actor]}/moves",
                         {"version": game.version, "move": move},
                         content_type="application/json")
    assert answer.status_code == 200
    stored = Game.objects.get(pk=game.pk)
    body = answer.json()
    assert body["version"] == stored.version == game.version + 1
    assert body["view"] == json.loads(json.dumps(engine.view(stored.state(), state.actor)))
    assert body["players"] == [{"seat": n, "name": f"Player{n}", "bot": False}
                               for n in range(3)]
    assert client.get(f"/api/play/{g.tokens[state.actor]}/").json()["view"] == body["view"]


def test_the_api_json_means_what_django_json_means() -> None:
    data = {"when": datetime(2031, 1, 2, 3, 4, 5, 678901, tzinfo=UTC),
            "text": gettext_lazy("active"), 3: [1.5, None, True], "nested": {"é": "ü"},
            "delta": timedelta(hours=1)}
    answer = JsonAnswer(data, status=409)
    assert answer.status_code == 409 and answer["Content-Type"] == "application/json"
    assert json.loads(answer.content) == json.loads(JsonResponse(data).content)


def test_a_remembered_log_is_only_used_while_the_moves_it_holds_stand(client: Client) -> None:
    """On PostgreSQL a process remembers the logs of the games it moved last and reads
    only the events since; a moderator's undo (the rows dropped and written again with new
    ids) makes it read everything again. Every answer shows exactly the stored log."""
    g = make_game(players=3, seed=9, start=True)
    rng = random.Random(9)
    moderator = make_moderator()

    def api_move() -> dict[str, Any]:
        _version, mover, answer = post_api_move(client, g, rng)
        assert answer.status_code == 200
        body = answer.json()
        stored = g.refresh()
        assert body["view"]["log"] == json.loads(json.dumps(
            engine.view(stored.state(), mover)["log"]))
        return body

    for _ in range(8):
        api_move()
    if connection.vendor == "postgresql":
        assert log_cache.known(g.game.pk) is not None
    version = g.refresh().version
    moderation.undo_to(g.game.pk, version - 4, expected_version=version,
                       moderator=moderator, reason="test", force=True)
    for _ in range(6):  # the same numbers again, other rows: never the remembered log
        api_move()
    assert len(api_move()["view"]["log"]) == len(g.refresh().state().log)


@pytest.mark.django_db(transaction=True)
def test_moves_go_on_after_the_database_connection_is_opened_again(client: Client) -> None:
    """The fast store keeps its statements' cursors with the connection they were opened
    on: once Django has closed it (CONN_MAX_AGE, a failed health check), the next move
    runs on the new connection, and the same statement again on the same one."""
    g = make_game(players=3, seed=6, start=True)
    rng = random.Random(6)
    for closed in (False, True, False, True):
        if closed:
            connection.close()
        version, _mover, answer = post_api_move(client, g, rng)
        assert answer.status_code == 200
        assert answer.json()["version"] == g.refresh().version == version + 1
