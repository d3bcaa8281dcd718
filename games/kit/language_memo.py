"""Words worked out once per process for each JSON value and language: a function whose
answer depends only on its JSON argument and the language active (its gettext calls),
such as a card's name or the maze's cells in words, answers from memory the second time.

    @per_language(bound=4096)
    def card_name(card: Mapping[str, Any]) -> str: ...

Why: a turn email names the same cards over and over (the maze twice, in its picture and
in words, the hand, the log), and so does the next email, page and replay; translating
and composing them again was some 8% of a move's emails' CPU (bench/emails.py).

The argument is keyed by its JSON text (orjson): equal values share an entry, and a value
that changed in any way (a hidden goal turned over, a perturbed state in the leak tests)
is a new key, never a stale answer. The answer is shared by every caller that gets it
from memory, so it must be one nobody changes (a str; a caller copies a dict).

A full memory is forgotten at once rather than entry by entry: a plain dict answers a
look-up at C speed, with no lock (a race between two threads only works an answer out
twice), where an LRU's bookkeeping and lock cost microseconds on every call; a few
emails fill it again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

import orjson
from django.utils import translation

A = TypeVar("A")
R = TypeVar("R")


def per_language(bound: int) -> Callable[[Callable[[A], R]], Callable[[A], R]]:
    """Remember `function`'s answers per (language, JSON text of its argument), at most
    `bound` of them (then all are forgotten and it starts again)."""

    def remembering(function: Callable[[A], R]) -> Callable[[A], R]:
        known: dict[tuple[str | None, bytes], R] = {}

        @functools.wraps(function)
        def remembered(value: A) -> R:
            try:
                key = (translation.get_language(), orjson.dumps(value))
            except orjson.JSONEncodeError:  # not JSON data (none today): worked out afresh
                return function(value)
            found = known.get(key)
            if found is None:
                found = function(value)
                if len(known) >= bound:
                    known.clear()
                known[key] = found
            return found

        return remembered

    return remembering
