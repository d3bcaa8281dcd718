"""What table talk tells the features above it (games.kit.events, wired in games.wiring)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mentioned:
    """A talk line called a seat's player by `@name`, and the hour's one call is free:
    tell them through the channel they chose (games.mail for email)."""

    game_id: int
    seat_id: int  # the seat called
    message_id: int  # the line
