"""How far a move travels: from each door (the JSON API, the seat page's form, an email
reply) to the one move service, and how many SQL statements a seat's first move takes.

    python bench/move_paths.py [--show]

In one process, on a throwaway SQLite database (emails to memory), three games, and in
each the first seat to act makes its first move through one door:
- api:   POST /api/play/<link>/moves
- page:  POST /play/<link>/move (the seat page's form)
- email: a reply to the turn email, posted to the inbound webhook and read by the worker
         (`games.inbound.services.process.process`; only the worker's part is counted)

For each it prints
- modules: the distinct modules of games/ on the call stack when
  `games.moves.services.moves.game_move_submit` is entered (the door's own included);
- calls: calls from one module of games/ into another during the whole move, and how
  many of them run back up the features' order (pyproject.toml's "Features point one
  way": a lower feature calling a higher one, by a callback or a late import);
- SQL: the statements the move's request (or the worker's processing) ran.
`--show` lists the modules of each path.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SERVICE = "game_move_submit"


def feature_order() -> dict[str, int]:
    """games.<feature> -> its height in "Features point one way" (higher: above)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    layers = config["tool"]["importlinter"]["contracts"][0]["layers"]
    order: dict[str, int] = {}
    for height, layer in enumerate(reversed(layers)):
        for name in re.split(r"\s*\|\s*", layer):
            order[name.strip()] = height
    return order


def feature_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


class Trace:
    """A profile hook: module-to-module calls inside games/, and the stack at the
    service's entry."""

    def __init__(self, order: dict[str, int]) -> None:
        self.order = order
        self.calls = 0
        self.upward = 0
        self.stack_modules: list[str] = []

    def hook(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        callee = frame.f_globals.get("__name__", "")
        if not callee.startswith("games."):
            return
        caller_frame = frame.f_back
        while caller_frame is not None and not str(
                caller_frame.f_globals.get("__name__", "")).startswith("games."):
            caller_frame = caller_frame.f_back
        if caller_frame is not None:
            caller = caller_frame.f_globals["__name__"]
            if caller != callee:
                self.calls += 1
                if self.order.get(feature_of(callee), 0) > self.order.get(feature_of(caller), 0):
                    self.upward += 1
        if frame.f_code.co_name == SERVICE and not self.stack_modules:
            modules: list[str] = []
            walk: FrameType | None = frame
            while walk is not None:
                name = str(walk.f_globals.get("__name__", ""))
                if name.startswith("games.") and name not in modules:
                    modules.append(name)
                walk = walk.f_back
            self.stack_modules = list(reversed(modules))


def measured(work: Callable[[], object]) -> tuple[Trace, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    trace = Trace(feature_order())
    with CaptureQueriesContext(connection) as queries:
        sys.setprofile(trace.hook)
        try:
            work()
        finally:
            sys.setprofile(None)
    return trace, len(queries.captured_queries)


def setup(folder: str) -> None:
    os.environ.update({"DJANGO_SETTINGS_MODULE": "saboteur_site.test_settings",
                       "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3"})
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from tests.provider_posts import MAILGUN_KEY, SECRET

    settings.ANYMAIL = {**getattr(settings, "ANYMAIL", {}), "WEBHOOK_SECRET": SECRET,
                        "MAILGUN_WEBHOOK_SIGNING_KEY": MAILGUN_KEY}
    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)


def first_move(seed: int) -> tuple[Any, str, Any]:
    """A started 3-seat game: (the game, the acting seat's link token, a legal move)."""
    from games import engine
    from tests.support import make_game

    made = make_game(players=3, seed=seed, start=True)
    game = made.game
    assert game.actor is not None
    move = engine.legal_moves(game.state())[0]
    return game, made.tokens[game.actor], move


def by_api(seed: int) -> Callable[[], object]:
    import json

    from django.test import Client

    game, token, move = first_move(seed)
    body = json.dumps({"version": game.version, "move": move})
    return lambda: Client().post(f"/api/play/{token}/moves", body,
                                 content_type="application/json")


def by_page(seed: int) -> Callable[[], object]:
    from django.test import Client

    from tests.support import form_post

    game, token, move = first_move(seed)
    data = form_post(move, game.version)
    return lambda: Client().post(f"/play/{token}/move", data)


def by_email(seed: int) -> Callable[[], object]:
    from django.test import Client

    from games.inbound.core.inbound_mail import InboundMail
    from games.inbound.services import process
    from games.seats.core.reply_tokens import issue
    from tests.inbound_support import raw_reply
    from tests.provider_posts import sendgrid_raw

    game, _token, _move = first_move(seed)
    seat = game.seats.get(number=game.actor)
    to = issue(seat, game.version)
    sendgrid_raw(Client(), raw_reply(to, "pass 1"), to)
    stored = InboundMail.objects.latest("pk")
    return lambda: process.process(stored.pk)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        for name, door in (("api", by_api), ("page", by_page), ("email", by_email)):
            trace, sql = measured(door(seed=3))
            print(f"{name:5}  modules to the service {len(trace.stack_modules):2}  "
                  f"calls between modules {trace.calls:3} ({trace.upward} back up)  "
                  f"SQL {sql}")
            if args.show:
                print("       " + "\n       ".join(trace.stack_modules))


if __name__ == "__main__":
    main()
