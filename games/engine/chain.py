"""The game's fingerprints: the commitment to the seed, and the hash chain of the moves.

Pure Python, no Django (docs/api.md "Fairness and the game record"; a player checks a record
with `manage.py verifygame`, which uses these very functions):

    commitment  = sha256("<salt>:<seed>")                        h_0, published at creation
    h_n         = sha256("<h_(n-1)>:<salt>:" + canonical(move n))  the head after move n

Every hash is written as 64 lowercase hex characters; `h_(n-1)` goes in as those 64 ASCII
characters. `canonical(move)` is the move exactly as the game record's `moves` lists it
(what `engine.replay` takes), as JSON with sorted keys, no spaces and non-ASCII characters
escaped (`json.dumps(move, sort_keys=True, separators=(",", ":"))`), so every program
that reads the same JSON writes the same bytes.

The salt is in every link because the moves are partly secret while the game runs (the
card a player discards face down): without it, anyone who saw two heads in a row could
hash each possible move and find the one that gives the second head. The salt is
secret until the game ends, and then revealed with the seed; the commitment already
binds it, so nobody can pick another one afterwards.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

# How much of a head people compare (a seat page, an email): 16 hex characters, 64 bits.
# Nobody can write other moves that give the same 16 characters at the same move.
SHORT = 16


def commitment(salt: str, seed: int) -> str:
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def canonical(move: Any) -> bytes:
    """The move's bytes in the chain: JSON, keys sorted, no spaces, ASCII only."""
    return json.dumps(move, sort_keys=True, separators=(",", ":")).encode("ascii")


def extend(head: str, salt: str, move: Any) -> str:
    """The head after `move`, from the head before it."""
    return hashlib.sha256(f"{head}:{salt}:".encode("ascii") + canonical(move)).hexdigest()


def heads(start: str, salt: str, moves: Iterable[Any]) -> list[str]:
    """The head after each move in turn, from `start` (the commitment: h_0)."""
    found, head = [], start
    for move in moves:
        head = extend(head, salt, move)
        found.append(head)
    return found


def head_after(start: str, salt: str, moves: Iterable[Any]) -> str:
    """The head after the last of `moves` (`start` when there are none)."""
    found = heads(start, salt, moves)
    return found[-1] if found else start


def short(head: str) -> str:
    """The part of a head people compare."""
    return head[:SHORT]
