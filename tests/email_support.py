"""Helpers for the email, deadline and Celery tests."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.core.mail.message import EmailMessage

from games import engine
from games.game.core.game import Game, Move
from games.mail.core.notifications import Notification
from tests.support import GameWithLinks, seat_move

Commit = Callable[[], Any]  # commit()


class FlakyBackend(LocmemBackend):
    """The locmem backend, failing the first `failures` sends with `error`."""

    failures: ClassVar[int] = 0
    error: ClassVar[Exception] = ConnectionError("provider unreachable")
    calls: ClassVar[int] = 0

    def send_messages(self, messages: Sequence[EmailMessage]) -> int:
        type(self).calls += 1
        if type(self).failures > 0:
            type(self).failures -= 1
            raise type(self).error
        return super().send_messages(messages)

    @classmethod
    def arm(cls, failures: int, error: Exception | None = None) -> None:
        cls.failures, cls.calls = failures, 0
        cls.error = error or ConnectionError("provider unreachable")


def dig(legal: list[engine.Move], rng: random.Random) -> engine.Move:
    """A policy that mostly digs towards the middle goal, so gold gets found (3 seats,
    seed 5: gold in rounds 1 and 2, 150 moves in all)."""
    places = [m for m in legal if m["type"] == "place"]
    if places and rng.random() < 0.9:
        best = max(m["x"] - abs(m["y"]) * 0.5 for m in places)
        return rng.choice([m for m in places if m["x"] - abs(m["y"]) * 0.5 == best])
    return rng.choice(legal)


def play_one(g: GameWithLinks, rng: random.Random, commit: Commit) -> Game:
    """The seat to act makes a move chosen by `dig`, and the hooks run."""
    game = g.refresh()
    state = game.state()
    seat = g.seats[state.actor or 0]
    move = dig(engine.legal_moves(state), rng)
    with commit():
        return seat_move(seat, game.version, move)


def play_until(g: GameWithLinks, done: Callable[[Game], bool], commit: Commit,
               seed: int = 7, limit: int = 2000) -> Game:
    rng = random.Random(seed)
    game = g.refresh()
    for _ in range(limit):
        if done(game) or game.status != Game.Status.ACTIVE:
            return game
        game = play_one(g, rng, commit)
    raise AssertionError("the game did not get there")


def sent_to(address: str) -> list[Any]:
    return [m for m in mail.outbox if address in m.to]


def kinds(**filters: Any) -> list[str]:
    return list(Notification.objects.filter(**filters).order_by("pk").values_list("kind",
                                                                                 flat=True))


def system_moves(game: Game) -> list[Move]:
    return list(game.moves.filter(actor_kind=Move.Actor.SYSTEM).order_by("number"))


def word(text: str) -> re.Pattern[str]:
    """A card id as a whole word (not inside a colour like #a17f3b)."""
    return re.compile(rf"(?<![#\w-]){re.escape(text)}(?![\w-])")
