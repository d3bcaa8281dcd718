"""Create a started demo game and print its seat links (README command 1 runs this)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games import engine
from games.play import services

DEMO_PLAYERS = ["Ann", "Bert", "Carla", "Dirk", "Elena", "Femke", "Gino", "Hilde", "Ivo", "Jet",
                "Kees", "Lotte"]


class Command(BaseCommand):
    help = "Create a demo game (started, every seat accepted) and print its private links."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=4,
                            help="3 to 10 for base, 2 to 12 for saboteur2 (default 4)")
        parser.add_argument("--ruleset", default="base", help="base (default) or saboteur2")
        parser.add_argument("--seed", type=int, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            rules = engine.rules_for(options["ruleset"])
        except ValueError as unknown:
            raise CommandError(str(unknown)) from None
        count = max(rules.min_seats, min(options["players"], rules.max_seats))
        players = [services.PlayerSpec(name=name, email=f"{name.lower()}@example.com")
                   for name in DEMO_PLAYERS[:count]]
        created = services.create_game(
            name=f"Demo game {timezone.now():%Y-%m-%d %H:%M}", players=players,
            ruleset=options["ruleset"], seed=options["seed"], start=True,
            spectators_allowed=True)
        for seat, _link in created.seats:
            services.accept_seat(seat.pk)
        self.stdout.write(self.style.SUCCESS(f"Demo game “{created.game.name}”: open a seat link "
                                             "to play that seat."))
        for seat, link in created.seats:
            self.stdout.write(f"seat {seat.number}\t{seat.player_name}\t{seat.email}\t{link}")
