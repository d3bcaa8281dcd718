"""Reading JSON from strangers: nesting is capped before the parser sees it, so a body
nested a thousand deep is a clear 400, never a RecursionError (a 500); and a string
holding a lone surrogate (`"\\ud800"`, valid JSON escapes but no text) is refused: it
could not be written to the database or encoded in an answer."""

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


def _text_only(value: Any) -> Any:
    """`value` unchanged; ValueError when a string in it (key or value) holds a lone
    surrogate. Only called for bodies with such an escape, at most MAX_DEPTH deep."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a lone surrogate in a JSON string") from None
    elif isinstance(value, list):
        for item in value:
            _text_only(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _text_only(key)
            _text_only(item)
    return value


def loads(raw: str | bytes) -> Any:
    """json.loads that refuses (ValueError) deep nesting, NUL bytes, bad encodings and
    strings that are no text (lone surrogates)."""
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    if "\x00" in text:
        raise ValueError("NUL in JSON")
    if nesting_depth(text) > MAX_DEPTH:
        raise ValueError("JSON nested too deep")
    data = json.loads(text)
    # Decoding `raw` checked the text itself; only an escape can make a surrogate.
    return _text_only(data) if _has_surrogate_escape(text) else data


def _has_surrogate_escape(text: str) -> bool:
    """Whether an escape in `text` could make a surrogate (\\ud800-\\udfff)."""
    lower = text.lower()
    return any(f"\\u{lead}" in lower for lead in ("d8", "d9", "da", "db", "dc", "dd", "de",
                                                   "df"))
