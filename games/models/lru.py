"""A process's bounded memory of what it served last (games.play.log_cache,
games.present.log_json): the newest `bound` entries, the oldest dropped first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedLRU(Generic[K, V]):
    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._table: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()  # runserver and threaded workers share a process

    def get(self, key: K, *, touch: bool = False) -> V | None:
        """The entry of `key`, or None; `touch` makes it the newest."""
        with self._lock:
            value = self._table.get(key)
            if touch and value is not None:
                self._table.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep `value` as the newest entry, dropping the oldest past the bound."""
        with self._lock:
            self._table[key] = value
            self._table.move_to_end(key)
            while len(self._table) > self.bound:
                self._table.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._table.clear()
