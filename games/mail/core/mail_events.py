"""What the outbox tells the features above it (games.kit.events): emails just planned,
so another channel (games.push) can plan its own alert beside each, in the same
transaction, without the outbox knowing it exists."""

from __future__ import annotations

from dataclasses import dataclass

from games.mail.core.notifications import Notification


@dataclass(frozen=True)
class NotificationsPlanned:
    """New Notification rows, written in the current transaction (their send tasks are
    queued on its commit): the rows as written, so a channel need not read them again."""

    notes: tuple[Notification, ...]
