"""Each process keeps the logs of the games it served last, so a move through the API
reads only the events since (issue 18: a late move read and parsed its game's whole log).

An entry is the whole log up to move `number` and that Move row's id. The move's locked
read asks PostgreSQL for the events after `number` and for the id of row `number` in the
same statement: Move rows are only ever appended, or deleted from the end (a moderator's
undo) and written again with new ids, so the same id means the same prefix, and anything
else means a full read. An entry written in a transaction that then rolls back names a
row that never existed: it is never taken. Events are read-only (engine README "Views").
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple, TypeVar

from games.engine.types import JSON

GAMES = 128  # games per process (a long game's log is a few hundred small dicts)
LINKS = 4 * GAMES

K = TypeVar("K")
V = TypeVar("V")


class Entry(NamedTuple):
    number: int  # the log holds every event up to Move row `number`
    move_id: int  # that row's id
    events: list[JSON]  # the whole log: opening events and every move's


_logs: OrderedDict[int, Entry] = OrderedDict()
_games_of_links: OrderedDict[str, int] = OrderedDict()  # a link's hash -> its seat's game
_lock = threading.Lock()


def known(game_id: int) -> Entry | None:
    with _lock:
        entry = _logs.get(game_id)
        if entry is not None:
            _logs.move_to_end(game_id)
        return entry


def remember(game_id: int, entry: Entry) -> None:
    _put(_logs, game_id, entry, GAMES)


def game_of_link(digest: str) -> int | None:
    with _lock:
        return _games_of_links.get(digest)


def remember_link(digest: str, game_id: int) -> None:
    """A seat never changes game: what its link's hash led to once, it leads to."""
    _put(_games_of_links, digest, game_id, LINKS)


def _put(table: OrderedDict[K, V], key: K, value: V, bound: int) -> None:
    """Keep `value` as the newest entry of `table`, dropping the oldest past `bound`."""
    with _lock:
        table[key] = value
        table.move_to_end(key)
        while len(table) > bound:
            table.popitem(last=False)


def clear() -> None:
    with _lock:
        _logs.clear()
        _games_of_links.clear()
