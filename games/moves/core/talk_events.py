"""A line of table talk was posted (games.kit.events): the features above that alert the
table's other players (games.push) listen, in the posting transaction."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TalkPosted:
    game_id: int
    seat_id: int  # the writer's seat
