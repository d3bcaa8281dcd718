"""Create a started demo game and print its seat links (`run.py serve` runs it).

By default the demo is you (seat 0) and bots, so one person can play a whole game:

    python manage.py demo                       4 seats: you and 3 bots
    python manage.py demo --players 5 --bots 2  5 seats: 3 people, then 2 bots
    python manage.py demo --players 1 --bots 3  1 person and 3 bots (--bots at least
                                                --players: people plus bots)
    python manage.py demo --bots 0              4 people, no bots
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games import engine
from games.game.core.game import GOING_ON, BotLevel, Game
from games.management.commands.creategame import seat_line
from games.seats.core.links import link_for
from games.seats.services import acceptance
from games.setup.services import game_setup

DEMO_NAME = "Demo game"
DEMO_PLAYERS = ["Ann", "Bert", "Carla", "Dirk", "Elena", "Femke", "Gino", "Hilde", "Ivo", "Jet",
                "Kees", "Lotte"]


def seat_counts(players: int, bots: int | None) -> tuple[int, int]:
    """(people, bots) from --players and --bots (see the module's docstring)."""
    if players < 1 or (bots is not None and bots < 0):
        raise CommandError("--players must be at least 1 and --bots at least 0")
    if bots is None:
        return 1, players - 1
    if bots >= players:
        return players, bots
    return players - bots, bots


def fit(people: int, bots: int, least: int, most: int) -> tuple[int, int]:
    """Clamp the seats to what the ruleset allows: bots make up a shortfall and go first
    when there are too many."""
    if people + bots < least:
        return people, least - people
    extra = people + bots - most
    if extra > 0:
        dropped = min(extra, bots)
        return people - (extra - dropped), bots - dropped
    return people, bots


class Command(BaseCommand):
    help = ("Create a demo game (started, every seat accepted) and print its private links: "
            "by default you in seat 0 and bots in the other seats.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=4,
                            help="seats in the game: 3 to 10 for base, 2 to 12 for saboteur2 "
                                 "(default 4)")
        parser.add_argument("--bots", type=int, default=None,
                            help="how many of those seats bots play (default: all but seat 0)")
        parser.add_argument("--ruleset", default="base", help="base (default) or saboteur2")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--reuse", action="store_true",
                            help="print the links of the newest demo game still open instead "
                                 "of creating one (run.py serve does, unless --new-demo)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["reuse"]:
            open_demo = (Game.objects.filter(name__startswith=DEMO_NAME, host_email="",
                                             status__in=GOING_ON).order_by("-created_at").first())
            if open_demo is not None:
                self.stdout.write(self.style.SUCCESS(
                    f"Demo game “{open_demo.name}” (reused; --new-demo for another):"))
                for seat in open_demo.seats.order_by("number"):
                    self.stdout.write(seat_line(seat, "" if seat.is_bot else link_for(seat)))
                return
        try:
            rules = engine.rules_for(options["ruleset"])
        except ValueError as unknown:
            raise CommandError(str(unknown)) from None
        people, bots = fit(*seat_counts(options["players"], options["bots"]),
                           rules.min_seats, rules.max_seats)
        names = DEMO_PLAYERS[:people + bots]
        players = ([game_setup.PlayerSpec(name=name, email=f"{name.lower()}@example.com")
                    for name in names[:people]]
                   + [game_setup.bot_player(name) for name in names[people:]])
        created = game_setup.create_game(
            name=f"{DEMO_NAME} {timezone.now():%Y-%m-%d %H:%M}", players=players,
            ruleset=options["ruleset"], seed=options["seed"], start=True,
            spectators_allowed=True, bot_level=BotLevel.STRONG)
        for seat, _invitation in created.seats:
            acceptance.accept_seat(seat.pk)
        self.stdout.write(self.style.SUCCESS(f"Demo game “{created.game.name}”: open a seat link "
                                             "to play that seat."))
        # The demo is for whoever runs it: they get the seats' own links (the host's
        # invitation links died when the seats were accepted just above).
        for seat, _invitation in created.seats:
            self.stdout.write(seat_line(seat, "" if seat.is_bot else link_for(seat)))
