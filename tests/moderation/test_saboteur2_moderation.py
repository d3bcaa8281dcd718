"""The moderators' page for a Saboteur 2 game: the whole truth in the expansion's words,
and a moderator's move among every legal one (the composed discards included)."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import engine
from games.game.core.game import Move
from games.seatview.core.move_forms import move_value
from tests.moderation_support import logged_in, make_moderator, page_url, play, post_action
from tests.support import choose, make_game

pytestmark = pytest.mark.django_db


def test_the_moderators_see_an_expansion_game_and_can_pass_for_a_seat() -> None:
    g = make_game(players=4, seed=10, ruleset="saboteur2")
    rng = random.Random(10)
    play(g, rng, until=lambda game: any(e["type"] == "swap_hats"
                                        for e in game.full_log()),
         bot=lambda state, legal, r: choose(legal, r, 0.35))
    client: Client = logged_in(make_moderator())
    game = g.refresh()
    body = client.get(page_url(game)).content.decode()
    assert "swap hats; the new hat:" in body  # the truth, in the moderators' words
    for role in {"blue gold-digger", "green gold-digger", "geologist"} & {
            r.replace("-digger", " gold-digger") for r in game.state().roles}:
        assert role in body
    move = next(m for m in engine.legal_moves(game.state())
                if m["type"] == "pass" and len(m["cards"]) == 2)
    value = move_value(move)
    assert value.replace('"', "&quot;") in body
    response = post_action(client, game, "move", move=value, expected_version=game.version)
    assert response.status_code == 302
    row = Move.objects.get(game=game, number=game.version + 1)
    assert row.actor_kind == Move.Actor.MODERATOR and row.move["cards"] == move["cards"]
