"""The module map of docs/DESIGN.md, made from the code: every package of games/ with the
first sentence of its docstring, every module with the first line of its own.

    python3 tools/module_map.py          print the map
    python3 tools/module_map.py --write  write it into docs/DESIGN.md, between its markers

The test command checks that docs/DESIGN.md holds the map as the code says it
(tests/ops/test_module_map.py), so it never tells of a module that is gone.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "DESIGN.md"
BEGIN = "<!-- module map: made by tools/module_map.py, do not edit by hand -->"
END = "<!-- end of the module map -->"
SKIP = {"migrations", "__pycache__", "templatetags"}
WIDTH = 88


def docstring(path: Path) -> str:
    text = ast.get_docstring(ast.parse(path.read_text())) or ""
    return " ".join(text.split("\n\n", 1)[0].split())


LONGEST = 100


def first_sentence(text: str) -> str:
    """Up to the first full stop; a long one cut at a word, with an ellipsis."""
    if not text:
        return ""
    sentence = text.split(". ", 1)[0].rstrip(".:") + "."
    if len(sentence) <= LONGEST:
        return sentence
    return sentence[:sentence.rfind(" ", 0, LONGEST)].rstrip(",;:(") + "…"


def wrapped(label: str, text: str, indent: int) -> list[str]:
    """`label` then `text` in a column, wrapped to WIDTH."""
    column = max(indent + 26, indent + len(label) + 2)
    lines, line = [], " " * indent + label.ljust(column - indent)
    for word in text.split():
        if len(line) + len(word) + 1 > WIDTH and line.strip() != label:
            lines.append(line.rstrip())
            line = " " * column
        line += word + " "
    lines.append(line.rstrip())
    return lines


def package_lines(folder: Path, indent: int) -> list[str]:
    out: list[str] = []
    init = folder / "__init__.py"
    about = first_sentence(docstring(init)) if init.exists() else ""
    out += wrapped(folder.name + "/", about, indent)
    for path in sorted(folder.iterdir()):
        if path.name in SKIP or path.name.startswith("."):
            continue
        if path.is_dir() and (path / "__init__.py").exists():
            out += package_lines(path, indent + 4)
        elif path.suffix == ".py" and path.name != "__init__.py":
            out += wrapped(path.name, first_line(path), indent + 4)
    return out


def first_line(path: Path) -> str:
    return first_sentence(docstring(path))


def module_map() -> str:
    return "\n".join(["", "    " + "\n    ".join(package_lines(ROOT / "games", 0)), ""])


def design_with_map(design: str) -> str:
    head, _, rest = design.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{module_map()}\n{END}{tail}"


def main() -> int:
    if "--write" in sys.argv:
        DESIGN.write_text(design_with_map(DESIGN.read_text()))
        return 0
    print(module_map())
    return 0


if __name__ == "__main__":
    sys.exit(main())
