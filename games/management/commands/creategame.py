"""Create a game from the command line and print each seat's private link.

    python manage.py creategame --name NAME --ruleset base --hours-per-move 24 \\
        --player "Ann <ann@example.com>" --player ... [--seed N] [--start]

prints one line per seat: seat N<TAB>NAME<TAB>EMAIL<TAB>ABSOLUTE_LINK.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email

from games.play import services

PLAYER_RE = re.compile(r"^\s*(?P<name>[^<>]+?)\s*<(?P<email>[^<>\s]+)>\s*$")


def parse_player(text: str) -> services.PlayerSpec:
    """'Ann <ann@example.com>' -> PlayerSpec, or CommandError."""
    match = PLAYER_RE.match(text)
    if not match:
        raise CommandError(f'--player must look like "Ann <ann@example.com>", not {text!r}')
    try:
        validate_email(match["email"])
    except ValidationError:
        raise CommandError(f"not a valid email address: {match['email']!r}") from None
    return services.PlayerSpec(name=match["name"], email=match["email"])


def parse_option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise CommandError(f"--option must look like key=value, not {text!r}")
    try:
        return key, json.loads(raw)
    except ValueError:
        return key, raw


class Command(BaseCommand):
    help = "Create a game and print one line per seat: seat N, name, email, private link."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True, help="name of the game")
        parser.add_argument("--ruleset", default="base", help="base (default) or saboteur2")
        parser.add_argument("--hours-per-move", type=int, default=None,
                            help="pace: hours each player has per move (default 24)")
        parser.add_argument("--player", action="append", default=[], metavar='"NAME <EMAIL>"',
                            help="a player, in seat order; repeat once per player")
        parser.add_argument("--seed", type=int, default=None, help="seed for the shuffles")
        parser.add_argument("--start", action="store_true",
                            help="start at once instead of when every player has accepted")
        parser.add_argument("--random-seats", action="store_true",
                            help="seat the players in random order")
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                            help="a ruleset option, e.g. gold_cards=diggers (JSON values)")
        parser.add_argument("--spectators", action="store_true", help="allow spectators")
        parser.add_argument("--language", default=None, metavar="LANG",
                            help="every seat's language: " + ", ".join(
                                code for code, _ in settings.LANGUAGES))

    def handle(self, *args: Any, **options: Any) -> None:
        players = [parse_player(p) for p in options["player"]]
        language = options["language"]
        if language is not None:
            known = [code for code, _ in settings.LANGUAGES]
            if language not in known:
                raise CommandError(f"--language must be one of {', '.join(known)}, "
                                   f"not {language!r}")
            players = [dataclasses.replace(p, language=language) for p in players]
        if not players:
            raise CommandError("give the players with --player \"Name <email>\", one per seat")
        game_options = dict(parse_option(o) for o in options["option"])
        seed = options["seed"]
        if seed is not None and not 0 <= seed < 2**63:
            raise CommandError("--seed must be between 0 and 2**63 - 1")
        try:
            created = services.create_game(
                name=options["name"], players=players, ruleset=options["ruleset"],
                options=game_options, hours_per_move=options["hours_per_move"], seed=seed,
                shuffle_seats=options["random_seats"], start=options["start"],
                spectators_allowed=options["spectators"])
        except services.SetupError as refused:
            raise CommandError(refused.message) from None
        for seat, link in created.seats:
            self.stdout.write(f"seat {seat.number}\t{seat.player_name}\t{seat.email}\t{link}")
