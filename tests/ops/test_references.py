"""Issue 37, item 4: every dotted `games.`/`saboteur_site.` name in the code's docstrings
and comments and in the docs resolves to something that exists (a module, or a name in
one), so a newcomer following a reference never lands on nothing."""

from __future__ import annotations

import ast
import importlib
import io
import re
import tokenize
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOTTED = re.compile(r"(?<![\w./-])((?:games|saboteur_site)(?:\.[A-Za-z_]\w*)+)")
# Names that look dotted but are not Python: permission codenames (app_label.codename),
# system check ids (games.W001) and file names in the docs' trees (games.py).
NOT_PYTHON = re.compile(r"^games\.((add|change|delete|view|moderate|see)_\w+|[EW]\d+)$"
                        r"|\.(py|md|html|txt|json|js|css)$")


IMPORT = re.compile(r"^\s*(from|import)\s")


def may_refer(source: str) -> bool:
    """Whether a dotted name stands anywhere but on an import line: the others (half of
    the modules) need no tokenizing or parsing, the most of this test's time."""
    return any(DOTTED.search(line) for line in source.splitlines() if not IMPORT.match(line))


def written_texts(source: str) -> list[str]:
    """A module's comments and docstrings (not its other strings: logger names, salts and
    task names are names, not references)."""
    comments = [token.string for token in tokenize.generate_tokens(io.StringIO(source).readline)
                if token.type == tokenize.COMMENT]
    owners = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docstrings = [ast.get_docstring(node, clean=False) or ""
                  for node in ast.walk(ast.parse(source)) if isinstance(node, owners)]
    return comments + docstrings


@cache
def resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            try:
                found = getattr(found, name)
            except AttributeError:
                return _is_field(found, name)
        return True
    return False


def _is_field(model: object, name: str) -> bool:
    """A model's field named in prose (games.seats.core.seat.Seat.email): a Django model keeps
    fields in its _meta, not as class attributes."""
    meta = getattr(model, "_meta", None)
    try:
        return meta is not None and meta.get_field(name) is not None
    except Exception:
        return False


def references() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    sources = [p for folder in ("games", "saboteur_site", "tests", "bench")
               for p in (ROOT / folder).rglob("*.py") if "migrations" not in p.parts]
    for path in sources:
        source = path.read_text()
        if not may_refer(source):
            continue
        for text in written_texts(source):
            found += [(str(path.relative_to(ROOT)), m) for m in DOTTED.findall(text)]
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), ROOT / "bench/README.md"]:
        found += [(str(path.relative_to(ROOT)), m) for m in DOTTED.findall(path.read_text())]
    return found


def test_every_dotted_name_in_docstrings_comments_and_docs_resolves() -> None:
    seen = references()
    assert len(seen) > 300  # the check reads what it should
    stale = sorted({f"{where}: {name}" for where, name in seen
                    if not NOT_PYTHON.search(name) and not resolves(name.rstrip("."))})
    assert stale == []
