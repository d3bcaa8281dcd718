"""Check a finished game's record (README "Fairness"): the commitment published at the
start matches sha256("<salt>:<seed>"), and the recorded moves replay from the seed, with
this engine, to a finished game. Prints the final scores; exit status 1 on a mismatch.

    python manage.py verifygame record.json        (or - for standard input)
    curl -s https://HOST/api/play/SECRET/record | python manage.py verifygame -
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engine
from games.models.fairness import matches


class Command(BaseCommand):
    help = "Check a game record: its commitment and the replay of its moves from the seed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="the record's JSON file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        record = _read(options["record"])
        try:
            seed, salt, published = int(record["seed"]), str(record["salt"]), \
                str(record["commitment"])
            seats = int(record["seats"]["count"])
            moves, ruleset, game_options = record["moves"], record["ruleset"], record["options"]
        except (KeyError, TypeError, ValueError) as missing:
            raise CommandError(f"not a game record: {missing!r}") from None
        if not matches(salt, seed, published):
            self.stderr.write("MISMATCH: sha256(salt:seed) is not the published commitment")
            sys.exit(1)
        self.stdout.write("commitment: matches sha256(salt:seed)")
        try:
            final = engine.replay(seats, seed, moves, ruleset, game_options)
        except (engine.IllegalMove, ValueError) as refused:
            self.stderr.write(f"MISMATCH: the moves do not replay: {refused}")
            sys.exit(1)
        if not final.finished:
            self.stderr.write("MISMATCH: the moves replay, but the game does not end")
            sys.exit(1)
        self.stdout.write(f"replay: {len(moves)} moves, the game ends")
        names = record["seats"].get("names") or [str(n) for n in range(seats)]
        for number, score in enumerate(final.scores):
            self.stdout.write(f"  {names[number] if number < len(names) else number}: {score}")


def _read(source: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as bad:
        raise CommandError(f"cannot read the record: {bad}") from None
    if not isinstance(data, dict):
        raise CommandError("not a game record: the JSON is not an object")
    return data
