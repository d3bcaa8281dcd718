"""A moderator's undo past a round's end (games.moderation.services.undo): a round rated
stays rated, on its players' rating history, and is not rated again when played again; a
round undone while its rating waited is rated once, as it was played again."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.game.core.game import Game, Move
from games.moderation import services as moderation
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import PublicName
from games.players.services.player_page import player_page
from games.ratings.core.rating_rows import PlayerRating, RatedRound, RatingDue
from games.ratings.services import rating_outbox
from tests.moderation_support import digger, make_moderator, play
from tests.players.play import round_ends
from tests.ratings.support import play_on, rated_game

pytestmark = pytest.mark.django_db


def ending_move(game: Game) -> int:
    """The number of the move that ended the game's first round."""
    return next(number for number, events in Move.objects.filter(game=game)
                .order_by("number").values_list("number", "events")
                if any(event.get("type") == "round_end" for event in events))


def undo(game: Game, to_version: int) -> Game:
    moderator = User.objects.filter(username="mod").first() or make_moderator()
    moderation.undo_to(game.pk, to_version, expected_version=game.version,
                       moderator=moderator, reason="a misclick", force=True)
    return Game.objects.get(pk=game.pk)


def winners(game: Game) -> Any:
    return round_ends(game)[0]["winners"]


def history(address: str) -> list[tuple[int, int]]:
    """The (change, rating) steps on the player's public page."""
    owner = PublicName.objects.create(mailbox=mailbox_key_hash(address), name="Ada",
                                      ratings_listed=True)
    shown = player_page(owner).ratings
    owner.delete()
    assert shown is not None  # listed
    return [(step.change, step.rating) for row in shown for step in row.history]


def test_a_rated_round_undone_stays_rated_and_is_not_rated_again_when_played_again() -> None:
    game = play_on(rated_game().refresh(), rounds=1)
    rating_outbox.rate_due()
    before = history("p0@example.com")
    assert len(before) == 1
    game = undo(game, ending_move(game) - 1)
    assert not round_ends(game)
    assert history("p0@example.com") == before  # the rated round stays on the page
    game = play_on(game, rounds=1, seed=8)
    assert round_ends(game)
    rating_outbox.rate_due()
    assert RatedRound.objects.filter(game=game).count() == 1
    assert history("p0@example.com") == before
    assert set(PlayerRating.objects.values_list("rounds", flat=True)) == {1}


@pytest.mark.parametrize("swept_between", [False, True])
def test_a_round_undone_before_it_was_rated_is_rated_once_as_played_again(
        swept_between: bool) -> None:
    g = rated_game(seed=5, players=7)
    game = play_on(g.refresh(), rounds=1)
    assert winners(game) == "saboteurs" and RatingDue.objects.filter(game=game).exists()
    g.game = undo(game, 0)
    if swept_between:  # the sweep finds no round ended to rate, and the row goes
        rating_outbox.rate_due()
        assert not RatedRound.objects.exists() and not RatingDue.objects.exists()
    play(g, random.Random(5), until=lambda game: bool(round_ends(game)), bot=digger)
    assert winners(g.refresh()) == "gold-diggers"
    rating_outbox.rate_due()
    rated = RatedRound.objects.get(game=game)
    assert {side["side"]: side["won"] for side in rated.result["sides"]} == {
        "gold-diggers": True, "saboteurs": False}
    assert set(PlayerRating.objects.values_list("rounds", flat=True)) == {1}
    assert not RatingDue.objects.exists()
