"""games.moves.services.seat_services: the single write path."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection

from games import engine
from games.engine.types import Move as EngineMove
from games.game.core.follow_up_rows import FollowUp
from games.game.core.game import Game, Move
from games.game.core.talk_and_notices import Message
from games.mail.services import follow_ups
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from games.seats.services import acceptance
from games.setup.services import game_setup
from tests.support import (
    GameWithLinks,
    assert_replay_matches,
    make_game,
    move_for,
    queued_tasks,
    seat_move,
)

Players = list[game_setup.PlayerSpec]


def players(n: int) -> Players:
    return [game_setup.PlayerSpec(f"P{i}", f"p{i}@example.com") for i in range(n)]


def first_legal(game: Game) -> EngineMove:
    return engine.legal_moves(game.state())[0]


def seat(g: GameWithLinks, number: int) -> Seat:
    return Seat.objects.select_related("game").get(game=g.game, number=number)


# ---- creating and starting ----------------------------------------------------------------


@pytest.mark.django_db
def test_create_game_writes_seats_with_hashed_links_and_a_snapshot() -> None:
    created = game_setup.create_game(name=" Friday ", players=players(3), seed=9)
    game = created.game
    assert game.name == "Friday" and game.status == Game.Status.SETUP and game.version == 0
    assert game.state().to_json() == engine.new_game(3, 9).to_json()
    assert game.options == engine.rules_for("base").default_options
    assert game.actor == 0 and game.deadline_at is None
    for number, (seat_row, link) in enumerate(created.seats):
        token = link.rstrip("/").rsplit("/", 1)[-1]
        assert seat_row.number == number and len(token) == 43
        assert token not in seat_row.secret_hash and len(seat_row.secret_hash) == 64


@pytest.mark.django_db
@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"players": players(2)}, "3 to 10"),
    ({"players": players(11)}, "3 to 10"),
    ({"players": players(3), "ruleset": "chess"}, "unknown ruleset"),
    ({"players": players(3), "options": {"gold_cards": "all"}}, "gold_cards"),
    ({"players": players(3), "hours_per_move": 0}, "pace"),
    ({"players": players(3), "name": "  "}, "name"),
    ({"players": [*players(2), game_setup.PlayerSpec("X", "P0@example.com")]}, "different email"),
    ({"players": [*players(2), game_setup.PlayerSpec("X", "x@example.com", "Mars/Base")]},
     "time zone"),
    ({"players": [*players(2), game_setup.PlayerSpec("X", "x@example.com", language="fr")]},
     "language"),
])
def test_bad_setup_creates_nothing(kwargs: dict[str, Any], fragment: str) -> None:
    arguments: dict[str, Any] = {"name": "G", **kwargs}
    with pytest.raises(services.SetupError) as refused:
        game_setup.create_game(**arguments)
    assert fragment in refused.value.message
    assert not Game.objects.exists() and not Seat.objects.exists()


@pytest.mark.django_db
def test_random_seating_keeps_every_player(game_factory: Callable[..., GameWithLinks]) -> None:
    g = game_factory(players=5, shuffle_seats=True)
    assert sorted(s.player_name for s in g.seats) == [f"Player{i}" for i in range(5)]


@pytest.mark.django_db
def test_game_starts_when_every_seat_has_accepted(
        django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    monkeypatch.setattr(follow_ups, "after_game_started",
                        lambda game_id, _version: started.append(game_id))
    g = make_game(players=3, start=False)
    with time_machine.travel(datetime(2030, 1, 1, 12, tzinfo=UTC), tick=False):
        for number in range(3):
            assert g.refresh().status == Game.Status.SETUP
            with django_capture_on_commit_callbacks(execute=True):
                acceptance.accept_seat(g.seats[number].pk)
        game = g.refresh()
    assert game.status == Game.Status.ACTIVE and started == [game.pk]
    assert game.turn_started_at == datetime(2030, 1, 1, 12, tzinfo=UTC)
    assert game.deadline_at == datetime(2030, 1, 2, 12, tzinfo=UTC)
    acceptance.accept_seat(g.seats[0].pk)  # accepting twice changes nothing
    assert g.refresh().status == Game.Status.ACTIVE and started == [game.pk]


@pytest.mark.django_db
def test_invitations_are_queued_on_commit(django_capture_on_commit_callbacks: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[int] = []
    monkeypatch.setattr(follow_ups, "send_invitation", sent.append)
    with django_capture_on_commit_callbacks(execute=True):
        created = game_setup.create_game(name="G", players=players(3))
    assert sent == [s.pk for s, _invitation in created.seats]


# ---- moves ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_move_writes_the_move_row_snapshot_version_and_clock(
        game: GameWithLinks, django_capture_on_commit_callbacks: Any) -> None:
    move = first_legal(game.game)
    moment = datetime(2031, 5, 5, 8, tzinfo=UTC)
    with time_machine.travel(moment, tick=False), \
            django_capture_on_commit_callbacks(execute=True):
        seat_move(seat(game, 0), 0, move)
    row = Move.objects.get(game=game.game)
    assert row.number == 1 and row.actor_kind == "seat" and row.seat_number == 0
    assert row.move == {**move, "seat": 0} and row.created_at == moment
    fresh = game.refresh()
    assert fresh.version == 1 and fresh.actor == 1
    assert fresh.state().to_json() == engine.apply(engine.new_game(3, 1), move).to_json()
    assert fresh.deadline_at == moment + timedelta(hours=24)
    # Its emails wait in the after-move outbox for the beat; no bot is next: no task.
    assert FollowUp.objects.filter(game=fresh, version=1).exists()
    assert queued_tasks() == []
    assert_replay_matches(fresh)


@pytest.mark.django_db
def test_a_stale_or_repeated_submission_changes_nothing(game: GameWithLinks) -> None:
    move = first_legal(game.game)
    seat_move(seat(game, 0), 0, move)
    before = game.refresh().snapshot
    with pytest.raises(services.StaleVersion) as stale:
        seat_move(seat(game, 0), 0, move)  # double click, second tab
    assert (stale.value.expected, stale.value.current) == (0, 1)
    assert "Someone played 1 move since you loaded this page" in stale.value.message
    assert game.refresh().snapshot == before and Move.objects.count() == 1


@pytest.mark.django_db
def test_an_illegal_move_changes_nothing(game: GameWithLinks) -> None:
    card = game.game.state().hands[0][0]
    with pytest.raises(engine.IllegalMove) as refused:
        seat_move(seat(game, 0), 0, {"type": "place", "card": card, "x": 5, "y": 5})
    assert not isinstance(refused.value, engine.MalformedMove)
    assert game.refresh().version == 0 and not Move.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("move", [{"type": "dance"}, {"type": "pass", "card": 7}, ["pass"]])
def test_a_malformed_move_is_refused_as_malformed(game: GameWithLinks, move: Any) -> None:
    with pytest.raises(engine.MalformedMove):
        seat_move(seat(game, 0), 0, move)
    assert game.refresh().version == 0


@pytest.mark.django_db
def test_the_seat_comes_from_the_link_not_the_move(game: GameWithLinks) -> None:
    move = {**first_legal(game.game), "seat": 0}
    with pytest.raises(engine.IllegalMove) as refused:
        seat_move(seat(game, 1), 0, move)  # seat 1 claims to be seat 0
    assert refused.value.code == "not_your_turn"
    assert game.refresh().version == 0


@pytest.mark.django_db
@pytest.mark.parametrize("status", ["setup", "paused", "cancelled", "finished"])
def test_games_not_active_accept_no_moves(game: GameWithLinks, status: str) -> None:
    Game.objects.filter(pk=game.game.pk).update(status=status)
    with pytest.raises(services.GameNotPlayable) as refused:
        seat_move(seat(game, 0), 0, first_legal(game.game))
    assert refused.value.code == ("game_finished" if status == "finished" else "game_not_active")
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_system_and_moderator_moves_are_recorded_as_such(
        game: GameWithLinks, django_user_model: Any) -> None:
    move_for(game.game.pk, 0, first_legal(game.game), actor_kind=Move.Actor.SYSTEM,
                        seat_number=0)
    moderator = django_user_model.objects.create_user("mod", password="x")
    game.refresh()
    move_for(game.game.pk, 1, first_legal(game.game),
                        actor_kind=Move.Actor.MODERATOR, moderator=moderator)
    kinds = list(Move.objects.values_list("actor_kind", "moderator__username"))
    assert kinds == [("system", None), ("moderator", "mod")]
    assert_replay_matches(game.game)


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_two_submissions_racing_on_one_version_apply_once() -> None:
    """Real threads, real row locks: only meaningful on PostgreSQL."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite has no row locks")
    g = make_game(players=3, seed=4)
    moves = engine.legal_moves(g.game.state())[:2]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def submit(move: dict[str, Any]) -> None:
        try:
            barrier.wait()
            seat_move(seat(g, 0), 0, move)
            outcomes.append("applied")
        except services.StaleVersion:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(m,)) for m in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["applied", "stale"]
    assert Move.objects.filter(game=g.game).count() == 1
    assert_replay_matches(g.game)


# ---- seats and talk -------------------------------------------------------------------------


@pytest.mark.django_db
def test_table_talk_and_preferences(game: GameWithLinks) -> None:
    message = services.post_message(seat(game, 1), "  Hello table  ")
    assert message.text == "Hello table" and Message.objects.count() == 1
    with pytest.raises(services.ServiceError):
        services.post_message(seat(game, 1), "   ")
    with pytest.raises(services.ServiceError):
        services.post_message(seat(game, 1), "x" * 1001)
    services.update_preferences(game.seats[1].pk, time_zone="Europe/Rome", language="it")
    assert seat(game, 1).time_zone == "Europe/Rome" and seat(game, 1).language == "it"
    with pytest.raises(services.ServiceError):
        services.update_preferences(game.seats[1].pk, time_zone="Nowhere", language="it")
