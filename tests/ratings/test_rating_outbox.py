"""The ratings' own outbox: a round ended in a rated game is rated by the ratings' sweep,
and a sweep that fails leaves the round waiting for the next one, never unrated."""

from __future__ import annotations

import pytest
from django.test import Client

from games.ratings.core.rating_rows import PlayerRating, RatedRound, RatingDue
from games.ratings.services import rating_outbox, rounds
from tests.ratings.support import play_on, rated_game
from tests.support import make_game

pytestmark = pytest.mark.django_db


def test_the_move_that_ends_a_rated_round_leaves_it_due_and_the_sweep_rates_it() -> None:
    game = play_on(rated_game().refresh(), rounds=1)
    assert RatingDue.objects.filter(game=game).count() == 1  # written with the move
    assert not RatedRound.objects.exists()
    assert rating_outbox.rate_due() == 1
    assert RatedRound.objects.filter(game=game).count() == 1
    assert PlayerRating.objects.count() == 4
    assert not RatingDue.objects.exists()


def test_a_round_whose_rating_failed_is_rated_at_the_next_sweep(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = play_on(rated_game().refresh(), rounds=1)
    real = rounds.after_moves

    def broken(game_id: int) -> int:
        raise RuntimeError("the ratings' database hiccuped")

    monkeypatch.setattr(rounds, "after_moves", broken)
    assert rating_outbox.rate_due() == 0
    assert not RatedRound.objects.exists()
    assert RatingDue.objects.get(game=game).attempts == 1  # still waiting, counted
    monkeypatch.setattr(rounds, "after_moves", real)
    assert rating_outbox.rate_due() == 1
    assert RatedRound.objects.filter(game=game).count() == 1


def test_an_unrated_game_leaves_nothing_due() -> None:
    play_on(make_game(players=4, seed=2).refresh(), rounds=1)
    assert not RatingDue.objects.exists()


def test_healthz_tells_how_long_a_rated_game_has_waited(client: Client) -> None:
    play_on(rated_game().refresh(), rounds=1)
    answer = client.get("/healthz").json()
    assert answer["checks"]["ratings"]["waiting"] == 1
    rating_outbox.rate_due()
    assert client.get("/healthz").json()["checks"]["ratings"] == {
        "ok": True, "waiting": 0, "oldest_seconds": None}
