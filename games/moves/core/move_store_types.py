"""What a move store reads and writes (games.moves.services.move_store), shared by both stores."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, Protocol, TypedDict

from games.engine.types import JSON
from games.game.core.game import Game
from games.seats.core.seat import Seat


@dataclass(frozen=True)
class SeatRow:
    """What a move needs of a seat (and what its answer lists of the players)."""
    id: int
    number: int
    kind: str
    player_name: str
    vacation_until: datetime | None
    missed_turns: int
    absent_since: datetime | None
    # the clock's (games.clock.core.timing): days off, quiet hours
    time_zone: str = "UTC"
    quiet_from: int | None = None
    quiet_to: int | None = None


@dataclass
class Locked:
    game: Game
    seats: dict[int, SeatRow]
    log: list[JSON] | None  # the whole log before this move, when asked for


class MoveRow(TypedDict):
    """A Move row's fields, as `write_move` writes them."""
    game: int
    number: int
    actor_kind: str
    seat_number: int | None
    moderator: int | None
    move: JSON
    events: list[JSON]
    created_at: datetime


class Written(NamedTuple):
    games: int  # 0: someone else moved first, and the caller rolls everything back
    move_id: int | None  # the new Move row's id (None when nothing was written)


class MoveStore(Protocol):
    def lock_game(self, game_id: int, *, with_log: bool = False) -> Locked: ...

    def lock_by_link(self, token: str, *,
                     with_log: bool = False) -> tuple[Seat, Locked] | None: ...

    def write_move(self, row: MoveRow, game_values: dict[str, Any],
                   version: int) -> Written: ...

    def remember(self, game_id: int, number: int, move_id: int, log: list[JSON]) -> None: ...
