"""A process's bounded memory of what it served last (games.moves.core.log_cache,
games.seatview.core.log_json): cachetools' LRU cache, the oldest entries dropped first, behind a
lock (runserver and threaded workers share a process)."""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

from cachetools import LRUCache

K = TypeVar("K")
V = TypeVar("V")


class BoundedLRU(Generic[K, V]):
    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._cache: LRUCache[K, V] = LRUCache(maxsize=bound)
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The entry of `key` (now the newest), or None."""
        with self._lock:
            return self._cache.get(key)

    def put(self, key: K, value: V) -> None:
        """Keep `value` as the newest entry, dropping the oldest past the bound."""
        with self._lock:
            self._cache[key] = value

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
