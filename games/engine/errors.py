"""The two kinds of move error. Both carry a stable `code`, a message for people (in
English) and `params`: the facts the message names (a side, a tool, a seat), so that a
server can say the same thing in the player's language, keyed by code.

`MalformedMove` subclasses `IllegalMove` so callers written against the DESIGN.md
contract (`except IllegalMove`) still catch everything `apply` raises; the server
checks for `MalformedMove` first to answer 400 instead of 422.
"""

from __future__ import annotations

from typing import Any


class IllegalMove(Exception):
    """A well-formed move that the rules forbid in this position."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message  # English; the server translates from code + params
        self.params: dict[str, Any] = dict(params or {})

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


class MalformedMove(IllegalMove):
    """A move of the wrong shape: not a dict, unknown type or card, missing field."""
