"""Feed one raw RFC 822 email through the moves-by-email pipeline and say what happened.

    DEBUG=1 .venv/bin/python manage.py inbound reply.eml     (the local server's settings)
    DEBUG=1 .venv/bin/python manage.py inbound - < reply.eml
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.inbound.services.receive import receive_bytes


class Command(BaseCommand):
    help = "Handle one raw email (a reply to a turn email) as if the provider had sent it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the .eml file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {name}: {error.strerror}") from None
        result = receive_bytes(raw)
        self.stdout.write(f"{result.outcome}: {result.detail}")
        if result.move is not None:
            self.stdout.write(f"move: {result.move}")
        for line in result.answer:
            self.stdout.write(f"  | {line}")
