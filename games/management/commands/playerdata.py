"""A player's data, for a request that arrives by post (README "Your data"):

    python manage.py playerdata ADDRESS --export [FILE]   everything stored of the address,
                                                           as JSON (to FILE, or printed)
    python manage.py playerdata ADDRESS --forget          forget the address
                                                          (games.home.services.forget)

The same services as the home page's "download my data" and "forget me".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email

from games.home.services.export import export_player_data
from games.home.services.forget import forget_player


class Command(BaseCommand):
    help = "Export (--export [FILE]) or forget (--forget) everything stored of one address."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("address")
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--export", nargs="?", const="-", metavar="FILE",
                          help="write the address's data as JSON to FILE (default: print it)")
        what.add_argument("--forget", action="store_true",
                          help="hand its seats under way over and erase the address")

    def handle(self, *args: Any, **options: Any) -> None:
        address = str(options["address"]).strip()
        try:
            validate_email(address)
        except ValidationError:
            raise CommandError(f"not an email address: {address!r}") from None
        if options["forget"]:
            done = forget_player(address)
            self.stdout.write(f"Forgotten; {done.handed_over} seats handed over; "
                              + (f"waiting for {done.waiting_for} games to end."
                                 if done.waiting_for else "nothing left to wait for."))
            return
        text = json.dumps(export_player_data(address), indent=2, ensure_ascii=False)
        if options["export"] == "-":
            self.stdout.write(text)
        else:
            Path(options["export"]).write_text(text + "\n", encoding="utf-8")
            self.stdout.write(f"Written to {options['export']}.")
