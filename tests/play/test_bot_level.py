"""How the bots play is a game setting: chosen at setup (command or page), changed by a
moderator, strong in the demo, and the bot seats play at the game's level."""

from __future__ import annotations

import io
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.management import CommandError, call_command
from django.test import Client

from games import bots as games_bots
from games.game.core.game import BotLevel, Game, Move
from games.moderation import services as moderation
from games.moderation.core.moderation_rows import ModeratorAction
from games.moves.services import moves
from games.moves.services import seat_services as services
from games.setup.services import game_setup
from tests.moderation_support import logged_in, make_moderator, post_action
from tests.setup_support import set_up

pytestmark = pytest.mark.django_db


def bots_game(level: str | None = None) -> Game:
    players = [*game_setup.bot_players(2), game_setup.PlayerSpec(name="Ann", email="a@x.org")]
    extra: dict[str, Any] = {} if level is None else {"bot_level": level}
    return game_setup.create_game(name="G", players=players, seed=3, start=True, **extra).game


def test_creategame_bot_level_and_its_default() -> None:
    base = ["creategame", "--player", "Ann <a@x.org>", "--bot", "B", "--bot", "C"]
    call_command(*base, "--name", "Normal", stdout=io.StringIO())
    call_command(*base, "--name", "Strong", "--bot-level", "strong", stdout=io.StringIO())
    assert Game.objects.get(name="Normal").bot_level == BotLevel.NORMAL
    assert Game.objects.get(name="Strong").bot_level == BotLevel.STRONG
    with pytest.raises(CommandError):
        call_command(*base, "--name", "Bad", "--bot-level", "genius", stdout=io.StringIO())
    assert not Game.objects.filter(name="Bad").exists()


def test_an_unknown_level_is_refused_by_the_service() -> None:
    with pytest.raises(services.SetupError):
        bots_game("genius")


def test_the_setup_page_offers_the_level(client: Client, commit: Any) -> None:
    page = client.get("/new/").content.decode()
    assert 'name="bot_level"' in page and "strong: reads the table" in page
    form = {"name": "With bots", "ruleset": "base", "hours_per_move": "24", "seating": "order",
            "start": "accepted", "time_zone": "UTC", "language": "en", "bots": "2",
            "bot_level": "strong", "player_0_name": "Ann", "player_0_email": "ann@x.org"}
    set_up(client, form, commit)
    assert Game.objects.get().bot_level == BotLevel.STRONG


def test_bot_seats_play_at_the_game_s_level(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = games_bots.choose_move

    def spy(view: Any, legal: Any, seed: int, level: str = "normal") -> Any:
        asked.append(level)
        return real(view, legal, seed, level=level)

    monkeypatch.setattr(games_bots, "choose_move", spy)
    game = bots_game("strong")
    assert moves.play_bot_turn(game.pk, 0) is True
    assert asked == ["strong"]
    normal = bots_game()
    assert moves.play_bot_turn(normal.pk, 0) is True
    assert asked == ["strong", "normal"]


def test_a_moderator_changes_the_level_on_the_record() -> None:
    mod = make_moderator()
    game = bots_game()
    moderation.set_bot_level(game.pk, level="strong", moderator=mod, reason="too easy")
    game.refresh_from_db()
    assert game.bot_level == BotLevel.STRONG
    action = ModeratorAction.objects.get(game=game, kind="bot_level")
    assert action.details == {"before": "normal", "level": "strong"}
    with pytest.raises(moderation.ModerationError):
        moderation.set_bot_level(game.pk, level="strong", moderator=mod, reason="again")


def test_the_moderation_page_changes_the_level() -> None:
    client = logged_in(make_moderator())
    game = bots_game()
    page = client.get(f"/admin/games/game/{game.pk}/moderate/").content.decode()
    assert "How the bots play" in page
    answer = post_action(client, game, "bot_level", level="strong")
    assert answer.status_code == 302
    game.refresh_from_db()
    assert game.bot_level == BotLevel.STRONG
    refused = post_action(client, game, "bot_level", level="strong")
    assert refused.status_code == 400 and "already play at that level" in refused.content.decode()


def test_the_demo_plays_strong_bots() -> None:
    call_command("demo", "--seed", "4", stdout=io.StringIO())
    assert Game.objects.get().bot_level == BotLevel.STRONG


def test_a_bot_turn_past_its_soft_time_limit_is_played_at_the_normal_level(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = games_bots.choose_move

    def slow_strong(view: Any, legal: Any, seed: int, level: str = "normal") -> Any:
        asked.append(level)
        if level == "strong":
            raise SoftTimeLimitExceeded()
        return real(view, legal, seed, level=level)

    monkeypatch.setattr(games_bots, "choose_move", slow_strong)
    game = bots_game("strong")
    assert moves.play_bot_turn(game.pk, 0) is True
    assert asked == ["strong", "normal"]
    game.refresh_from_db()
    assert game.version == 1 and game.bot_level == BotLevel.STRONG  # the level stays
    assert list(Move.objects.filter(game=game).values_list("actor_kind", flat=True)) == ["bot"]
    assert moves.play_bot_turn(game.pk, 0) is False  # and a second run does nothing
