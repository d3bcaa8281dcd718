"""The documentation has no sentence cut off: every paragraph and list item of the README
and of docs/*.md ends as a sentence ends, and no paragraph is the dangling rest of one
(issue 34, item 15: "the other a" ended one page, "404, so nobody ..." stood alone in
another)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import run

PAGES = sorted([Path(run.ROOT) / "README.md", *(Path(run.ROOT) / "docs").glob("*.md")])
ITEM = re.compile(r"^\s*(?:[-*]|\d+\.)\s")
# How a sentence, a list item introducing a list or a block, or a quoted name ends.
ENDS = (".", ":", ";", "!", "?", ")", "`", "*", '"', "”")


def blocks(text: str) -> list[list[str]]:
    """The page's paragraphs (runs of lines between blank lines), outside code fences."""
    found: list[list[str]] = []
    current: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
            current = []
            continue
        if fenced:
            continue
        if line.strip():
            current.append(line)
        elif current:
            found.append(current)
            current = []
    if current:
        found.append(current)
    return found


def is_code(lines: list[str]) -> bool:
    """Indented code: 4 spaces in, or 6 in a list item (where "- " starts YAML, not an
    item)."""
    indent = len(lines[0]) - len(lines[0].lstrip(" "))
    return lines[0].startswith("\t") or indent >= 6 or (indent >= 4
                                                        and not ITEM.match(lines[0]))


def cut_off(lines: list[str], *, after_code: bool) -> list[str]:
    """The lines of a paragraph where a sentence is cut off (or begins mid-way).
    `after_code`: the paragraph before was code (a sentence may go on after it)."""
    first = lines[0]
    if first.startswith(("#", "|", "Contents:", "<!--")) or is_code(lines):
        return []  # a heading, a table, a comment, code
    start = first.lstrip()[:1]
    if first.startswith(" ") and not ITEM.match(first) and not after_code \
            and not (start.isupper() or start in "(`\"*["):
        return [first]  # the indented rest of a list item whose beginning is gone
    items: list[list[str]] = []
    for line in lines:
        if ITEM.match(line) or not items:
            items.append([line])
        else:
            items[-1].append(line)
    return [item[-1] for item in items if not item[-1].rstrip().endswith(ENDS)]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_no_sentence_is_cut_off(page: Path) -> None:
    paragraphs = blocks(page.read_text(encoding="utf-8"))
    broken = [line for before, paragraph in zip([["."], *paragraphs], paragraphs, strict=False)
              for line in cut_off(paragraph, after_code=is_code(before))]
    assert broken == [], f"{page.name}: {broken}"
