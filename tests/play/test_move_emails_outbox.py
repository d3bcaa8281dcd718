"""The after-move outbox (games.mail.services.move_emails): a move publishes nothing, its FollowUp
row is written with it, and the beat's `follow_up_moves` plans its emails exactly once."""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

import pytest
from django.core import mail

from games import engine
from games.game.core.follow_up_rows import FollowUp
from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.mail.services import move_emails, plan
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from games.tasks import follow_up_moves
from tests.email_support import dig, sent_to
from tests.support import GameWithLinks, make_game, queued_tasks, seat_move

pytestmark = pytest.mark.django_db


def move(g: GameWithLinks, commit: Any, rng: random.Random, *, worker: bool = True) -> int:
    """The seat to act makes a move, committed; the version it made."""
    game = g.refresh()
    state = game.state()
    assert state.actor is not None
    with commit(worker=worker):
        return seat_move(g.seats[state.actor], game.version,
                                    dig(engine.legal_moves(state), rng)).version


def pending() -> list[tuple[int, int]]:
    return list(FollowUp.objects.order_by("id").values_list("game_id", "version"))


def test_a_move_publishes_nothing_and_the_beats_run_plans_its_turn_email_once(
        commit: Any) -> None:
    with commit(worker=False):
        g = make_game(players=3, seed=1, start=True)
    assert pending() == [(g.game.pk, 0)]  # the start's: the first turn email
    queued_tasks()  # the invitations' tasks
    version = move(g, commit, random.Random(1), worker=False)
    assert queued_tasks() == []  # no task for the move
    assert pending() == [(g.game.pk, 0), (g.game.pk, version)]
    assert not Notification.objects.filter(kind="turn").exists()
    with commit(worker=False):
        assert follow_up_moves() == 2
    assert pending() == []
    # Only the turn now open gets an email: seat 0's turn is long over.
    turns = Notification.objects.filter(kind="turn")
    assert [n.to_email for n in turns] == ["p1@example.com"]
    with commit(worker=False):
        assert follow_up_moves() == 0  # a second run finds nothing and plans nothing
    assert Notification.objects.filter(kind="turn").count() == 1


def test_a_refused_move_leaves_no_follow_up(commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    FollowUp.objects.all().delete()
    with pytest.raises(services.StaleVersion):
        seat_move(g.seats[0], 5, {"type": "pass", "card": "x"})
    state = g.refresh().state()
    with pytest.raises(engine.IllegalMove):
        seat_move(g.seats[0], 0, {"type": "pass", "card": "not-in-hand"})
    assert pending() == [] and g.refresh().state().to_json() == state.to_json()


def test_the_beat_and_the_worker_send_the_turn_email_of_a_move(commit: Any) -> None:
    """As production runs: the beat plans the move's emails, a worker sends them."""
    with commit():
        g = make_game(players=3, seed=1, start=True)
    move(g, commit, random.Random(1))
    assert pending() == []
    assert len([m for m in sent_to("p1@example.com") if "your turn" in m.subject]) == 1


def test_a_game_whose_planning_fails_keeps_its_rows_and_the_others_go_on(
        commit: Any) -> None:
    with commit(worker=False):
        broken = make_game(players=3, seed=1, start=True)
        fine = make_game(players=3, seed=2, start=True)
    queued_tasks()  # the invitations' tasks: not this test's business
    real = plan.after_move_of

    def after_move_of(game: Game, seats: dict[int, Seat], version: int) -> list[plan.Spec]:
        if game.pk == broken.game.pk:
            raise RuntimeError("a bug in the planning")
        return real(game, seats, version)

    with mock.patch.object(plan, "after_move_of", after_move_of), commit(worker=False):
        assert move_emails.follow_up_due() == 1
    assert pending() == [(broken.game.pk, 0)]  # tried again next run
    assert Notification.objects.filter(kind="turn", game=fine.game).count() == 1
    with commit(worker=False):
        assert move_emails.follow_up_due() == 1
    assert pending() == []
    assert Notification.objects.filter(kind="turn", game=broken.game).count() == 1
    assert not mail.outbox  # sends are tasks of their own, queued, not run here
    assert {name for name, _args, _kw in queued_tasks()} == {"games.tasks.send_notification"}
