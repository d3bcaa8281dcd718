"""Helpers for the moderation tests: users, a simple bot, posting admin forms."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import Group, Permission, User
from django.test import Client

from games import engine
from games.game.core.game import Game, Move
from tests.support import GameWithLinks, choose, move_for


def moderators_group() -> Group:
    """The "moderators" group as the migrations make it (0003, 0023's open seats, offers
    and volunteers, 0040's public names, 0059's tournaments, 0060's challenges and
    blocks). A transaction test's flush drops migrated rows, so it is made again the same
    way when a later test on that worker needs it (tests/conftest.py)."""
    made = importlib.import_module("games.migrations.0003_moderators")
    handover = importlib.import_module("games.migrations.0023_seat_handover")
    names = importlib.import_module("games.migrations.0040_name_reset")
    events = importlib.import_module("games.migrations.0059_event_result_and_admin")
    challenges = importlib.import_module("games.migrations.0060_challenge_withdrawn")
    group, _created = Group.objects.get_or_create(name=made.GROUP)
    if _created:
        group.permissions.set(Permission.objects.get(content_type__app_label="games",
                                                     content_type__model=model,
                                                     codename=codename)
                              for model, codename in [*made.PERMISSIONS, *handover.VIEW,
                                                      *names.VIEW, *events.VIEW,
                                                      *challenges.VIEW])
    return group


def make_moderator(username: str = "mod", email: str = "mod@example.com") -> User:
    user = User.objects.create_user(username, email, "pw-for-tests", is_staff=True)
    user.groups.add(moderators_group())
    return user


def make_staff(username: str = "staff", *codenames: str) -> User:
    """Staff outside the moderators group, with only the given games permissions."""
    user = User.objects.create_user(username, f"{username}@example.com", "pw-for-tests",
                                    is_staff=True)
    for codename in codenames:
        user.user_permissions.add(Permission.objects.get(content_type__app_label="games",
                                                         codename=codename))
    return user


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


Bot = Callable[[engine.State, list[engine.Move], random.Random], engine.Move]


def wanderer(state: engine.State, legal: list[engine.Move],
             rng: random.Random) -> engine.Move:
    """tests.support's varied policy: rounds mostly end with the cards run out."""
    return choose(legal, rng)


def digger(state: engine.State, legal: list[engine.Move],
           rng: random.Random) -> engine.Move:
    """Everybody digs towards the goals and mends their own tools: goals get reached,
    so rounds end with reveals and gold picks as well as payouts."""
    places = [m for m in legal if m["type"] == "place"]
    if places:
        best = max(m["x"] for m in places)
        return rng.choice([m for m in places if m["x"] == best])
    mine = [m for m in legal if m["type"] == "action" and m.get("target") == state.actor]
    if mine and rng.random() < 0.8:
        return rng.choice(mine)
    return rng.choice([m for m in legal if m["type"] == "pass"] or legal)


def bot_move(game: Game, rng: random.Random, bot: Bot = wanderer) -> Game:
    """One move for the seat to act, as that seat."""
    state = game.state()
    move = bot(state, engine.legal_moves(state), rng)
    return move_for(game.pk, game.version, {**move, "seat": state.actor},
                               actor_kind=Move.Actor.SEAT, seat_number=state.actor)


def play(g: GameWithLinks, rng: random.Random, moves: int | None = None,
         until: Callable[[Game], bool] | None = None,
         bot: Bot = wanderer) -> list[dict[str, Any]]:
    """Play with the bot; returns the snapshot after each version (index = version)."""
    game = g.refresh()
    snapshots = [game.state().to_json()]
    done = 0
    while not game.state().finished and (moves is None or done < moves):
        if until is not None and until(game):
            break
        game = bot_move(game, rng, bot)
        snapshots.append(game.state().to_json())
        done += 1
    g.game = game
    return snapshots


def log_types(game: Game) -> list[str]:
    return [str(e.get("type")) for e in game.full_log()]


def action_url(game: Game, action: str) -> str:
    return f"/admin/games/game/{game.pk}/moderate/{action}/"


def page_url(game: Game) -> str:
    return f"/admin/games/game/{game.pk}/moderate/"


def post_action(client: Client, game: Game, action: str, **fields: Any) -> Any:
    """POST a moderation form with its prefix (`reason` defaults to a test reason)."""
    fields.setdefault("reason", "testing " + action)
    data = {f"{action}-{k}": v for k, v in fields.items() if v is not None}
    return client.post(action_url(game, action), data)
