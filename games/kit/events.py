"""What happened, told to whoever cares: a feature publishes a typed event and the
features above it that care subscribe, so a lower feature never imports a higher one
(docs/DESIGN.md "The plan"). Handlers run at once, in the publisher's transaction: what
they write commits or rolls back with it; work that may wait is handed to the worker
after the commit (games.kit.after_commit). Who listens to what is one list:
games.wiring, read when Django starts."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

Event = TypeVar("Event")
_HANDLERS: dict[type, list[Callable[[Any], None]]] = defaultdict(list)


def subscribe(kind: type[Event], handler: Callable[[Event], None]) -> None:
    """`handler` runs for every event of `kind` published from now on (once, however
    often it is subscribed)."""
    if handler not in _HANDLERS[kind]:
        _HANDLERS[kind].append(handler)


def publish(event: object) -> None:
    """Run every handler of the event's kind, in the order they subscribed."""
    for handler in _HANDLERS.get(type(event), ()):
        handler(event)
