"""Each process keeps the logs of the games it served last, so a move through the API
reads only the events since, not its game's whole log.

An entry is the whole log up to move `number` and that Move row's id. The move's locked
read asks PostgreSQL for the events after `number` and for the id of row `number` in the
same statement: Move rows are only ever appended, or deleted from the end (a moderator's
undo) and written again with new ids, so the same id means the same prefix, and anything
else means a full read. An entry written in a transaction that then rolls back names a
row that never existed: it is never taken. Events are read-only (engine README "Views").
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.types import JSON
from games.kit.lru import BoundedLRU

GAMES = 128  # games per process (a long game's log is a few hundred small dicts)
LINKS = 4 * GAMES


class Entry(NamedTuple):
    number: int  # the log holds every event up to Move row `number`
    move_id: int  # that row's id
    events: list[JSON]  # the whole log: opening events and every move's


_logs: BoundedLRU[int, Entry] = BoundedLRU(GAMES)
_games_of_links: BoundedLRU[str, int] = BoundedLRU(LINKS)  # a link's hash -> its game


def known(game_id: int) -> Entry | None:
    return _logs.get(game_id)


def remember(game_id: int, entry: Entry) -> None:
    _logs.put(game_id, entry)


def game_of_link(digest: str) -> int | None:
    return _games_of_links.get(digest)


def remember_link(digest: str, game_id: int) -> None:
    """A seat never changes game: what its link's hash led to once, it leads to."""
    _games_of_links.put(digest, game_id)


def clear() -> None:
    _logs.clear()
    _games_of_links.clear()
