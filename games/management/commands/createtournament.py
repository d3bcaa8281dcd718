"""Create a tournament open for sign-up and print its number and page (the operator's way;
docs/operations.md "Tournaments"). Players join from their home.

    .venv/bin/python manage.py createtournament --name "Autumn cup" --ruleset base --players 5 \\
        --rounds 5 --hours-per-move 24 --language en --cap 64 \\
        --signup-closes 2026-12-20T18:00Z --round-days 21 [--rated] [--duplicate] \\
        [--advance-share 0.75] [--seed N] [--host ann@example.com]
        [--bank-hours 72 --increment-hours 24 --bank-max-hours 120] [--days-off sat,sun]
        [--date-off 2026-12-25 ...] [--clock-preset bank_3_days]

--players is a number, a range ("4-6"), or "even" (any size the ruleset allows, as even
as the field allows). Round 1 is paired by the beat's sweep once sign-up closes.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.clock.core.clock_presets import NAMES
from games.clock.core.clock_setup import ClockSettings, clock_settings
from games.kit.service_errors import SetupError
from games.tournaments.core.event_settings import TournamentError, read_settings
from games.tournaments.services.entries import create_event


def _players(text: str) -> int | str:
    return int(text) if text.isdigit() else text


class Command(BaseCommand):
    help = "Create a tournament open for sign-up."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True)
        parser.add_argument("--ruleset", default="base")
        parser.add_argument("--players", default="even", type=_players)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--hours-per-move", type=int, default=None)
        parser.add_argument("--clock-preset", choices=NAMES, default="")
        parser.add_argument("--language", default="en")
        parser.add_argument("--cap", type=int, default=64)
        parser.add_argument("--signup-closes", required=True,
                            help="ISO 8601, e.g. 2026-12-20T18:00Z")
        parser.add_argument("--round-days", type=int, default=30)
        parser.add_argument("--advance-share", type=float, default=0.75)
        parser.add_argument("--rated", action="store_true")
        parser.add_argument("--duplicate", action="store_true")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--host", default="")
        # The games' clock, as creategame's (docs/playing.md "The clock").
        parser.add_argument("--bank-hours", type=int, default=None, metavar="N")
        parser.add_argument("--increment-hours", type=int, default=None, metavar="N")
        parser.add_argument("--bank-max-hours", type=int, default=None, metavar="N")
        parser.add_argument("--days-off", default="", metavar="DAYS", help="e.g. sat,sun")
        parser.add_argument("--date-off", action="append", default=[], metavar="YYYY-MM-DD")

    def handle(self, *args: Any, **options: Any) -> None:
        closes = parse_datetime(options["signup_closes"].replace("Z", "+00:00"))
        if closes is None:
            raise CommandError("--signup-closes is a date and time, e.g. 2026-12-20T18:00Z")
        if timezone.is_naive(closes):
            closes = timezone.make_aware(closes, timezone.get_default_timezone())
        try:
            clock = clock_settings(
                bank_hours=options["bank_hours"], increment_hours=options["increment_hours"],
                bank_max_hours=options["bank_max_hours"], days_off=options["days_off"],
                dates_off=options["date_off"])
        except SetupError as refused:
            raise CommandError(refused.message) from None
        try:
            pace = ({} if options["hours_per_move"] is None
                    else {"hours_per_move": options["hours_per_move"]})
            chosen = read_settings({"clock": None if clock == ClockSettings() else clock,
                "clock_preset": options["clock_preset"], **pace,
                "name": options["name"], "ruleset": options["ruleset"],
                "players": options["players"], "rounds": options["rounds"],
                "language": options["language"],
                "cap": options["cap"], "signup_closes": closes,
                "round_days": options["round_days"], "advance_share": options["advance_share"],
                "rated": options["rated"], "duplicate": options["duplicate"]})
        except TournamentError as refused:
            raise CommandError(f"--{(refused.field or 'name').replace('_', '-')}: "
                               f"{refused.message}") from None
        event = create_event(chosen, host_email=options["host"], seed=options["seed"])
        self.stdout.write(f"tournament {event.pk}\t/tournaments/{event.pk}/\t"
                          f"seed {event.seed}")
