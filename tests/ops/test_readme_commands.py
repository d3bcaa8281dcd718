"""Every command the README and the pages it points to (docs/playing.md, docs/api.md,
docs/operations.md, bench/README.md) show runs as written on a fresh clone once `python3
run.py serve` has made `.venv`: no bare `python manage.py` (no such Python has Django),
every `manage.py` command, `run.py` subcommand and bench script they name exists."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management import get_commands

import run

PAGES = ("README.md", "docs/playing.md", "docs/api.md", "docs/operations.md", "bench/README.md")
README = "\n".join((Path(run.ROOT) / page).read_text(encoding="utf-8") for page in PAGES)


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


def test_the_verifygame_example_has_placeholders_and_says_where_they_come_from() -> None:
    """A real-looking head in `--seen 57:97bdc5...` made readers run it as written and get
    MISMATCH (another game's fingerprint): the example shows placeholders."""
    examples = re.findall(r"verifygame \S+ --seen (\S+)", README)
    assert examples and set(examples) == {"MOVE:FINGERPRINT"}, examples
    readme = (Path(run.ROOT) / "README.md").read_text(encoding="utf-8")
    after = " ".join(readme[readme.index("--seen MOVE:FINGERPRINT"):].split())
    assert "Fingerprint of the moves after move" in after[:600]  # where a player finds it
