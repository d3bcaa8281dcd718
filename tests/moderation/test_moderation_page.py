"""The moderation page: one "looked at the secrets" row per moderator, game and hour; the
rules and moves in words (raw JSON only folded away)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from games.moderation.core.moderation_rows import ModeratorAction
from tests.moderation_support import make_moderator
from tests.support import START, GameWithLinks

pytestmark = pytest.mark.django_db


def looks(game: GameWithLinks) -> int:
    return ModeratorAction.objects.filter(game=game.game, kind="view_secrets").count()


def test_looking_is_recorded_once_an_hour(client: Client, game: GameWithLinks) -> None:
    client.force_login(make_moderator())
    url = f"/admin/games/game/{game.game.pk}/moderate/"
    with time_machine.travel(START, tick=False) as traveller:
        assert client.get(url).status_code == 200
        client.get(url)
        client.get(url)
        assert looks(game) == 1
        traveller.shift(timedelta(minutes=61))
        client.get(url)
        assert looks(game) == 2


def test_the_rules_and_moves_read_in_words(client: Client, game: GameWithLinks) -> None:
    client.force_login(make_moderator())
    body = client.get(f"/admin/games/game/{game.game.pk}/moderate/").content.decode()
    assert "{'gold_cards'" not in body and "Saboteur" in body
    assert "admin.css" in client.get("/admin/games/game/").content.decode()
