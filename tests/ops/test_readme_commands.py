"""Every command the README shows runs as written on a fresh clone once `python3 run.py
serve` has made `.venv`: no bare `python manage.py` (no such Python has Django), every
`manage.py` command, `run.py` subcommand and bench script it names exists."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management import get_commands

import run

README = (Path(run.ROOT) / "README.md").read_text(encoding="utf-8")


def test_no_command_needs_a_python_the_clone_does_not_have() -> None:
    bare = re.findall(r"(?<![/\w.])python (?:manage\.py|bench/)\S*", README)
    assert bare == []


def test_every_named_command_exists() -> None:
    django = set(get_commands())
    managed = set(re.findall(r"(?:manage\.py|run\.py manage) ([a-z_]+)", README)) - {"COMMAND"}
    assert managed and managed <= django, managed - django
    subcommands = set(re.findall(r"python3 run\.py ([a-z]+)", README))
    assert subcommands <= {"serve", "test", "manage", "lock", "catalogs"}, subcommands
    for script in set(re.findall(r"bench/[a-z_]+\.py", README)):
        assert (Path(run.ROOT) / script).exists(), script
