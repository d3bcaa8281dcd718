"""Create a game from the command line and print each seat's invitation link (it opens the
seat until its player accepts; the player's own link goes to them by email only).

    python manage.py creategame --name NAME --ruleset base --hours-per-move 24 \\
        --player "Ann <ann@example.com>" --player ... [--bot Bert ...] [--seed N] [--start]
        [--language it] [--time-zone Europe/Rome]
        --player "Ann <ann@example.com> lang=it tz=Europe/Rome"   (one seat's own choice)

prints one line per seat: seat N<TAB>NAME<TAB>EMAIL<TAB>ABSOLUTE_LINK. A bot's seat
(`--bot NAME`, repeatable; seats follow the order of --player and --bot on the command
line) prints "NAME (bot)", "-" and "-": it has no address and nobody needs its link.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.clock.core.clock_setup import clock_settings
from games.kit import time_zones
from games.moves.services import seat_services as services
from games.people.core.deliverable import validate_deliverable
from games.setup.core.player_defaults import seat_language_and_zone
from games.setup.services import game_setup

PLAYER_RE = re.compile(r"^\s*(?P<name>[^<>]+?)\s*<(?P<email>[^<>\s]+)>(?P<rest>[^<>]*)$")
# After the address, a seat's own language and time zone: `lang=it tz=Europe/Rome`.
SEAT_CHOICES = {"lang": "language", "tz": "time_zone"}


def parse_player(text: str) -> game_setup.PlayerSpec:
    """'Ann <ann@example.com> [lang=it] [tz=Europe/Rome]' -> PlayerSpec, or CommandError.
    A language or time zone not given is left empty (`resolve_choices` fills it)."""
    match = PLAYER_RE.match(text)
    if not match:
        raise CommandError(f'--player must look like "Ann <ann@example.com>", not {text!r}')
    try:
        validate_deliverable(match["email"])
    except ValidationError as refused:
        raise CommandError(f"not a valid email address: {match['email']!r}: "
                           f"{' '.join(refused.messages)}") from None
    chosen = {"language": "", "time_zone": ""}
    for word in match["rest"].split():
        key, sep, value = word.partition("=")
        if not sep or key not in SEAT_CHOICES or not value:
            raise CommandError(f"after a player's address only lang=LANG and tz=ZONE may "
                               f"follow, not {word!r}")
        chosen[SEAT_CHOICES[key]] = value
    return game_setup.PlayerSpec(name=match["name"], email=match["email"],
                               language=chosen["language"], time_zone=chosen["time_zone"])


def resolve_choices(players: list[game_setup.PlayerSpec], language: str,
                    time_zone: str) -> list[game_setup.PlayerSpec]:
    """Each person's seat: its own choice, else its address's, else the game's."""
    resolved = []
    for player in players:
        seat_language, seat_zone = (language, time_zone) if player.bot else (
            seat_language_and_zone(player.email, language=player.language,
                                   time_zone=player.time_zone, game_language=language,
                                   game_time_zone=time_zone))
        resolved.append(dataclasses.replace(player, language=seat_language,
                                            time_zone=seat_zone))
    return resolved


def parse_option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise CommandError(f"--option must look like key=value, not {text!r}")
    try:
        return key, json.loads(raw)
    except ValueError:
        return key, raw


class InSeatOrder(argparse.Action):
    """--player and --bot both add a seat, in the order given on the command line."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        seats = list(getattr(namespace, "seats", None) or [])
        seats.append((self.const, values))
        namespace.seats = seats


def seat_specs(seats: list[tuple[str, str]]) -> list[game_setup.PlayerSpec]:
    specs = []
    for kind, text in seats:
        if kind == "bot":
            name = text.strip()
            if not name or len(name) > 60:
                raise CommandError(f"--bot needs a name of 1 to 60 characters, not {text!r}")
            specs.append(game_setup.bot_player(name))
        else:
            specs.append(parse_player(text))
    return specs


class Command(BaseCommand):
    help = ("Create a game and print one line per seat: seat N, name, email, invitation link "
            "(valid until the player accepts; their own link is emailed to them).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True, help="name of the game")
        parser.add_argument("--ruleset", default="base", help="base (default) or saboteur2")
        parser.add_argument("--hours-per-move", type=int, default=None,
                            help="pace: hours each player has per move (default 24)")
        parser.add_argument("--player", action=InSeatOrder, const="player", dest="seats",
                            default=[], metavar='"NAME <EMAIL>"',
                            help="a player, in seat order; repeat once per player")
        parser.add_argument("--bot", action=InSeatOrder, const="bot", dest="seats",
                            metavar="NAME", help="a seat played by a bot; repeatable")
        parser.add_argument("--seed", type=int, default=None, help="seed for the shuffles")
        parser.add_argument("--start", action="store_true",
                            help="start at once instead of when every player has accepted")
        parser.add_argument("--random-seats", action="store_true",
                            help="seat the players in random order")
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                            help="a ruleset option, e.g. gold_cards=diggers (JSON values)")
        parser.add_argument("--spectators", action="store_true", help="allow spectators")
        parser.add_argument("--rated", action="store_true",
                            help="the rounds count for the players' ratings")
        parser.add_argument("--anonymous", action="store_true",
                            help="an anonymous table: every seat is named by an alias until "
                                 "the game ends (the seats in random order)")
        parser.add_argument("--timeout-policy", default="auto_pass",
                            choices=["auto_pass", "wait", "bot"],
                            help="when a deadline passes: the server passes (auto_pass, the "
                                 "default), the game waits (wait) or a bot plays (bot)")
        parser.add_argument("--while-seat-open", default="bot", choices=["bot", "wait"],
                            help="while a seat looks for a new player (docs/playing.md \"When "
                                 "a player leaves\"): a bot plays it (bot, the default) or the "
                                 "game waits (wait)")
        parser.add_argument("--bot-level", default="normal", choices=["normal", "strong"],
                            help="how the game's bots play: normal (the default) or strong "
                                 "(reads the table and looks ahead; slower)")
        parser.add_argument("--open-absent-seats", action="store_true",
                            help="look for a new player for a seat marked absent")
        parser.add_argument("--list-open-seats", action="store_true",
                            help="list the game's open seats on the open-seats page")
        parser.add_argument("--language", default=None, metavar="LANG",
                            help="every seat's language: " + ", ".join(
                                code for code, _ in settings.LANGUAGES))
        parser.add_argument("--time-zone", default="UTC", metavar="ZONE",
                            help="every seat's time zone (default UTC), e.g. Europe/Rome")
        parser.add_argument("--bank-hours", type=int, default=None, metavar="N",
                            help="a time bank per seat of N hours instead of a fixed time "
                                 "per move (docs/playing.md \"The clock\")")
        parser.add_argument("--increment-hours", type=int, default=None, metavar="N",
                            help="hours each move adds to the seat's bank")
        parser.add_argument("--bank-max-hours", type=int, default=None, metavar="N",
                            help="the most a bank can hold (default: the bank)")
        parser.add_argument("--days-off", default="", metavar="DAYS",
                            help="weekdays on which no clock runs, in each seat's zone, "
                                 "e.g. sat,sun")
        parser.add_argument("--date-off", action="append", default=[], metavar="YYYY-MM-DD",
                            help="a date on which no clock runs; repeatable")

    def handle(self, *args: Any, **options: Any) -> None:
        players = seat_specs(options["seats"])
        language = options["language"]
        known = [code for code, _ in settings.LANGUAGES]
        if language is not None and language not in known:
            raise CommandError(f"--language must be one of {', '.join(known)}, "
                               f"not {language!r}")
        if not time_zones.valid_time_zone(options["time_zone"]):
            raise CommandError(f"--time-zone: unknown time zone {options['time_zone']!r}")
        players = resolve_choices(players, language or "en", options["time_zone"])
        if not players:
            raise CommandError('give the players with --player "Name <email>" (or --bot NAME), '
                               "one per seat")
        game_options = dict(parse_option(o) for o in options["option"])
        seed = options["seed"]
        if seed is not None and not 0 <= seed < 2**63:
            raise CommandError("--seed must be between 0 and 2**63 - 1")
        try:
            chosen = clock_settings(
                bank_hours=options["bank_hours"], increment_hours=options["increment_hours"],
                bank_max_hours=options["bank_max_hours"], days_off=options["days_off"],
                dates_off=options["date_off"])
            created = game_setup.create_game(
                name=options["name"], players=players, ruleset=options["ruleset"],
                options=game_options, hours_per_move=options["hours_per_move"], seed=seed,
                shuffle_seats=options["random_seats"], start=options["start"],
                spectators_allowed=options["spectators"], rated=options["rated"],
                anonymous=options["anonymous"], timeout_policy=options["timeout_policy"],
                while_seat_open=options["while_seat_open"],
                bot_level=options["bot_level"],
                open_absent_seats=options["open_absent_seats"],
                list_open_seats=options["list_open_seats"], clock=chosen)
        except services.SetupError as refused:
            raise CommandError(refused.message) from None
        for seat, link in created.seats:
            self.stdout.write(seat_line(seat, link))


def seat_line(seat: Any, link: str) -> str:
    """seat N<TAB>NAME<TAB>EMAIL<TAB>LINK; a bot's seat has "-" for its address and link.
    The operator reads the names as stored; an anonymous table's alias follows a name
    ("Ann [Badger]")."""
    name = f"{seat.player_name} [{seat.alias}]" if seat.alias else seat.player_name
    if seat.is_bot:
        return f"seat {seat.number}\t{name} (bot)\t-\t-"
    return f"seat {seat.number}\t{name}\t{seat.email}\t{link}"
