"""Check a finished game's record (docs/api.md "Fairness and the game record"): the
commitment, the replay of the moves from the seed, the hash chain of the moves and the
final scores (games.engine.verify). Prints the head after each move, to compare with a
head your emails showed (or give it with --seen); exit status 1 on any mismatch.

    .venv/bin/python manage.py verifygame record.json     (or - for standard input)
    .venv/bin/python manage.py verifygame record.json --seen MOVE:FINGERPRINT
    .venv/bin/python manage.py verifygame record.json --deal SALT:COMMITMENT

`--deal`: a duplicate tournament round's salt and commitment (its page, once every table
of the round has ended): the game's seed must be the one the round committed to, so
every table of the round (of one size) was dealt the same roles, deck and gold.

It needs no server settings (manage.py runs it with saboteur_site.offline_settings).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.chain import commitment
from games.engine.verify import NotARecord, check_record

SEEN = re.compile(r"(\d+):([0-9a-fA-F]{8,64})")
DEAL = re.compile(r"([0-9a-fA-F]{1,64}):([0-9a-fA-F]{64})")


def seen_head(text: str) -> tuple[int, str]:
    """`--seen N:HEX`: the head (at least its first 8 hex characters) after move N."""
    found = SEEN.fullmatch(text.strip())
    if found is None:
        raise ValueError(text)
    return int(found[1]), found[2].lower()


def round_deal(text: str) -> tuple[str, str]:
    """`--deal SALT:COMMITMENT`: a duplicate round's salt and its published commitment."""
    found = DEAL.fullmatch(text.strip())
    if found is None:
        raise ValueError(text)
    return found[1].lower(), found[2].lower()


class Command(BaseCommand):
    help = ("Check a game record: its commitment, the replay of its moves from the seed, "
            "the hash chain of the moves and the final scores.")
    # A player's own machine: no database, no server settings to check.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="the record's JSON file, or - for standard input")
        parser.add_argument("--seen", type=seen_head, action="append", default=[],
                            metavar="MOVE:FINGERPRINT",
                            help="the fingerprint you kept after move MOVE (a turn email, "
                                 "your page): at least its first 8 hex characters; "
                                 "repeatable")
        parser.add_argument("--deal", type=round_deal, default=None,
                            metavar="SALT:COMMITMENT",
                            help="a duplicate tournament round's salt and commitment: the "
                                 "game's seed must be the round's")

    def handle(self, *args: Any, **options: Any) -> None:
        record = _read(options["record"])
        try:
            verdict = check_record(record, dict(options["seen"]))
        except NotARecord as bad:
            raise CommandError(str(bad)) from None
        for line in verdict.lines:
            self.stdout.write(line)
        if verdict.mismatch is None and options["deal"] is not None:
            salt, committed = options["deal"]
            if commitment(salt, int(record["seed"])) != committed:
                verdict.mismatch = "the seed is not the one the round's deal committed to"
            else:
                self.stdout.write("deal: the seed is the round's (sha256(salt:seed) matches)")
        if verdict.mismatch is not None:
            self.stderr.write(f"MISMATCH: {verdict.mismatch}")
            sys.exit(1)


def _read(source: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as bad:
        raise CommandError(f"cannot read the record: {bad}") from None
    if not isinstance(data, dict):
        raise CommandError("not a game record: the JSON is not an object")
    return data
