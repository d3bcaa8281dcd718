"""Reading JSON from strangers: nesting is capped before the parser sees it, so a body
nested a thousand deep is a clear 400, never a RecursionError (a 500)."""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32


def nesting_depth(raw: str) -> int:
    """The deepest [ / { nesting in `raw`, brackets inside strings not counted."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def loads(raw: str | bytes) -> Any:
    """json.loads that refuses (ValueError) deep nesting, NUL bytes and bad encodings."""
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    if "\x00" in text:
        raise ValueError("NUL in JSON")
    if nesting_depth(text) > MAX_DEPTH:
        raise ValueError("JSON nested too deep")
    return json.loads(text)
