"""What the outbox tells the features above it (games.kit.events): emails just planned,
so another channel (games.push) can plan its own alert beside each, in the same
transaction, without the outbox knowing it exists."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NotificationsPlanned:
    """New Notification rows, written in the current transaction (their send tasks are
    queued on its commit)."""

    ids: tuple[int, ...]
