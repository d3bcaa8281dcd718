"""The two kinds of move error. Both carry a stable `code` and a message for people.

`MalformedMove` subclasses `IllegalMove` so callers written against the DESIGN.md
contract (`except IllegalMove`) still catch everything `apply` raises; the server
checks for `MalformedMove` first to answer 400 instead of 422.
"""

from __future__ import annotations


class IllegalMove(Exception):
    """A well-formed move that the rules forbid in this position."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class MalformedMove(IllegalMove):
    """A move of the wrong shape: not a dict, unknown type or card, missing field."""
