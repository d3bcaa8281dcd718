"""Reading JSON from strangers with orjson, whose parser already refuses what is no text
or no JSON: bytes that are not UTF-8, a raw control character (a NUL) in a string or
anywhere else, a `\\ud800` escape without its pair (a lone surrogate could not be
written to the database nor encoded in an answer), NaN and infinities, and nesting past
1024 (never a RecursionError: the parser does not recurse in Python). One rule is ours:
nothing we read nests deeper than MAX_DEPTH, so a move nested a thousand deep is a
clear 400 before any code compares or stores it (Python's own comparisons and encoders
would recurse into it)."""

from __future__ import annotations

from typing import Any

import orjson

MAX_DEPTH = 32


def deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and objects in `value` nest more than `limit` deep (`[]` is 1 deep),
    looking one level at a time and no further than `limit` + 1."""
    level = [value] if isinstance(value, list | dict) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        level = [child for container in level
                 for child in (container.values() if isinstance(container, dict) else container)
                 if isinstance(child, list | dict)]
    return False


def loads(raw: str | bytes) -> Any:
    """orjson.loads, refusing (ValueError: orjson.JSONDecodeError is one) what its parser
    refuses, and nesting deeper than MAX_DEPTH."""
    data = orjson.loads(raw)
    if deeper_than(data, MAX_DEPTH):
        raise ValueError("JSON nested too deep")
    return data
