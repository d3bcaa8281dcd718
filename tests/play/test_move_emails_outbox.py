"""The after-move outbox (games.play.move_emails): a move publishes nothing, its FollowUp row
is written with it, and the beat's `follow_up_moves` plans its emails exactly once."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from celery import current_app
from django.core import mail

from games import engine
from games.mail import dispatch, plan
from games.models import FollowUp, Notification
from games.play import move_emails, services
from games.tasks import follow_up_moves
from tests.email_support import dig, sent_to
from tests.support import GameWithLinks, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def through_the_broker() -> Iterator[mock.MagicMock]:
    """Tasks are not run eagerly (as in production); what would be queued is recorded."""
    saved = current_app.conf.task_always_eager
    current_app.conf.update(task_always_eager=False)
    try:
        with mock.patch.object(dispatch, "current_app") as app:
            yield app
    finally:
        current_app.conf.update(task_always_eager=saved)


def move(g: GameWithLinks, commit: Any, rng: random.Random) -> int:
    """The seat to act makes a move, committed; the version it made."""
    game = g.refresh()
    state = game.state()
    assert state.actor is not None
    with commit():
        return services.submit_move(g.seats[state.actor], game.version,
                                    dig(engine.legal_moves(state), rng)).version


def pending() -> list[tuple[int, int]]:
    return list(FollowUp.objects.order_by("id").values_list("game_id", "version"))


def test_a_move_publishes_nothing_and_the_beats_run_plans_its_turn_email_once(
        commit: Any, through_the_broker: mock.MagicMock) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    assert pending() == [(g.game.pk, 0)]  # the start's: the first turn email
    through_the_broker.reset_mock()
    version = move(g, commit, random.Random(1))
    assert not through_the_broker.tasks.__getitem__.called  # no task for the move
    assert pending() == [(g.game.pk, 0), (g.game.pk, version)]
    assert not Notification.objects.filter(kind="turn").exists()
    with commit():
        assert follow_up_moves() == 2
    assert pending() == []
    # Only the turn now open gets an email: seat 0's turn is long over.
    turns = Notification.objects.filter(kind="turn")
    assert [n.to_email for n in turns] == ["p1@example.com"]
    with commit():
        assert follow_up_moves() == 0  # a second run finds nothing and plans nothing
    assert Notification.objects.filter(kind="turn").count() == 1


def test_a_refused_move_leaves_no_follow_up(commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    FollowUp.objects.all().delete()
    with pytest.raises(services.StaleVersion):
        services.submit_move(g.seats[0], 5, {"type": "pass", "card": "x"})
    state = g.refresh().state()
    with pytest.raises(engine.IllegalMove):
        services.submit_move(g.seats[0], 0, {"type": "pass", "card": "not-in-hand"})
    assert pending() == [] and g.refresh().state().to_json() == state.to_json()


def test_eagerly_the_hook_plans_at_once(commit: Any) -> None:
    """Tests and a shell run tasks eagerly: the move's email is out when the commit is."""
    with commit():
        g = make_game(players=3, seed=1, start=True)
    move(g, commit, random.Random(1))
    assert pending() == []
    assert len([m for m in sent_to("p1@example.com") if "your turn" in m.subject]) == 1


def test_a_game_whose_planning_fails_keeps_its_rows_and_the_others_go_on(
        commit: Any, through_the_broker: mock.MagicMock) -> None:
    with commit():
        broken = make_game(players=3, seed=1, start=True)
        fine = make_game(players=3, seed=2, start=True)
    real = plan.after_move

    def after_move(game_id: int, version: int) -> list[plan.Spec]:
        if game_id == broken.game.pk:
            raise RuntimeError("a bug in the planning")
        return real(game_id, version)

    with mock.patch.object(plan, "after_move", after_move), commit():
        assert move_emails.follow_up_due() == 1
    assert pending() == [(broken.game.pk, 0)]  # tried again next run
    assert Notification.objects.filter(kind="turn", game=fine.game).count() == 1
    with commit():
        assert move_emails.follow_up_due() == 1
    assert pending() == []
    assert Notification.objects.filter(kind="turn", game=broken.game).count() == 1
    assert not mail.outbox  # sends are tasks of their own, not run here
