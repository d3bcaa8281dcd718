"""Give every open seat a new private link and email it (docs/operations.md "Links and their keys").

    python manage.py rotatelinks [--old-keys-only]

Run it after setting a new LINK_KEY (keep the old one in LINK_KEY_FALLBACKS until this
has run); then the old key can go. Prints how many seats got a new link.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.home.services.link_rotation import rotate_all_links


class Command(BaseCommand):
    help = "Give every seat of an open game a new private link and email it to its player."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--old-keys-only", action="store_true",
                            help="only seats whose link was made under another link key "
                                 "than the current LINK_KEY")

    def handle(self, *args: Any, **options: Any) -> None:
        done = rotate_all_links(old_keys_only=options["old_keys_only"])
        self.stdout.write(f"{done.seats} seats got a new link; {done.emails} emails queued.")
