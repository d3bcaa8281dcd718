"""Each seat's game log as JSON text, kept per process for the JSON API's answers.

Every answer of the API carries the seat's whole log (engine README "Views"): late in a
game that is 170 events or more, 13 KB of JSON, most of which the same seat was sent the
move before. Copying each event with a secret for the seat and encoding them all again
for every answer is a measurable share of a late move's CPU (bench/README.md). Here the
events a seat was last shown are kept encoded, and only those added since are redacted
and encoded.

The log only grows by appending: a log that still holds, at the same place, the very
event object the text ended with (events are read-only dicts, kept alive by the entry)
is the same log up to there. A log read afresh (another process wrote the moves, or a
moderator's undo rewrote them) holds new objects, and its text is made again from the
start. The end of the game shows secrets to everyone (`_at_end`): that is another text.
"""

from __future__ import annotations

from typing import NamedTuple

import orjson

from games.engine import State, seat_event
from games.engine.types import JSON
from games.kit.lru import BoundedLRU

# (game, seat) texts per process: a late log's text is about 13-25 KB.
ENTRIES = 256


class _Text(NamedTuple):
    length: int  # how many events of the log the text holds
    last: JSON  # the last of them, the log's own object: the same object, the same log
    text: bytes  # those events as the seat sees them: JSON values joined by commas


_texts: BoundedLRU[tuple[int, int | None, bool], _Text] = BoundedLRU(ENTRIES)


def seat_log_json(game_id: int, state: State, seat: int | None) -> orjson.Fragment:
    """`state.log` as `seat`'s view shows it, as a JSON array orjson writes as it is."""
    events = state.log
    key = (game_id, seat, state.finished)
    known = _texts.get(key)
    start, text = 0, b""
    if known is not None and 0 < known.length <= len(events) \
            and events[known.length - 1] is known.last:
        start, text = known.length, known.text
    if start < len(events):
        added = orjson.dumps([seat_event(e, seat, state.finished) for e in events[start:]],
                             option=orjson.OPT_NON_STR_KEYS)[1:-1]
        text = text + b"," + added if text else added
    if events:
        _texts.put(key, _Text(len(events), events[-1], text))
    return orjson.Fragment(b"[" + text + b"]")


def clear() -> None:
    _texts.clear()
