"""Log sentences remembered per process: `event_sentence` with the same answers as
games.seatview.core.describe's, which stays the reference
(tests/present/test_remembered_sentences.py).

A late game's seat page and turn email each describe the whole log (170 events or more)
and the suspicion sheet lists its actions again, while every event but the newest was
described, in the same words, for the move before: at move 150 of a 5-seat game the
page's story took 2.8 ms of its context's 12 ms, remembered 0.7 ms. A sentence depends
on nothing but the event, the names it may read, the ruleset, the viewer and the language
active now, and the key holds all five: a seat changing hands, a forgotten player renamed, another
language, each makes a sentence of its own.
"""

from __future__ import annotations

import orjson
from django.utils.translation import get_language

from games.engine.types import LogEvent
from games.kit.lru import BoundedLRU
from games.seatview.core import describe
from games.seatview.core.words import Names

# About 120 bytes a sentence and 300 a key: a few MB a process.
ENTRIES = 20_000

NamesKey = tuple[tuple[int, str], ...]

_sentences: BoundedLRU[tuple[str | None, str, int | None, bytes, NamesKey], str] = \
    BoundedLRU(ENTRIES)


def names_key(names: Names) -> NamesKey:
    """The names as a key: a caller describing many events with the same names makes it
    once and passes it on."""
    return tuple(names.items())


def event_sentence(event: LogEvent, names: Names, ruleset: str, viewer: int | None = None,
                   *, key_of_names: NamesKey | None = None) -> str:
    """describe.event_sentence(event, names, ruleset, viewer), remembered."""
    try:
        told = orjson.dumps(event, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except TypeError:  # not JSON (a test's hand-made event): described every time
        return describe.event_sentence(event, names, ruleset, viewer)
    key = (get_language(), ruleset, viewer, told,
           names_key(names) if key_of_names is None else key_of_names)
    sentence = _sentences.get(key)
    if sentence is None:
        sentence = describe.event_sentence(event, names, ruleset, viewer)
        _sentences.put(key, sentence)
    return sentence


def clear() -> None:
    _sentences.clear()
