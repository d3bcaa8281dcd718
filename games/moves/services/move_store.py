"""Where a move reads and writes its rows: one interface, two implementations.

    lock_game(game_id, with_log=)      the Game row locked for this transaction, its seats
                                       and (with_log) the whole log so far
    lock_by_link(token, with_log=)     the seat a link opens and its game, locked; or None
    write_move(row, game_values, version)
                                       the Move row, its after-move outbox row (FollowUp)
                                       and the game's new values, only if the game is
                                       still at `version`
    remember(game_id, number, move_id, log)
                                       the log after a move, for the next read to start
                                       from (a store may keep it, or not)

`OrmMoveStore`, here, is the reference: plain Django ORM, what a newcomer reads first, and
what the tests hold the other one to. `games.moves.services.fast_move_store` does the same on
PostgreSQL in two statements instead of seven, for the JSON API's throughput
(bench/api.py prints both). `store()` picks the fast one on PostgreSQL unless the setting
MOVE_STORE is "orm"; SQLite always gets the reference.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from django.conf import settings
from django.db import connection

from games.engine.types import JSON
from games.game.core.follow_up_rows import FollowUp
from games.game.core.game import Game, Move
from games.moves.core.move_store_types import Locked, MoveRow, MoveStore, SeatRow, Written
from games.seats.core.links import find_seat
from games.seats.core.seat import Seat

__all__ = ["Locked", "MoveRow", "MoveStore", "OrmMoveStore", "SeatRow", "Written",
           "queue_follow_up", "store"]


SEAT_FIELDS = ("id", "number", "kind", "player_name", "vacation_until", "missed_turns",
               "absent_since", "time_zone", "quiet_from", "quiet_to")


class OrmMoveStore:
    """The reference: each read and write one ORM query."""

    def lock_game(self, game_id: int, *, with_log: bool = False) -> Locked:
        """Raises Game.DoesNotExist. The lock is real on PostgreSQL; SQLite serialises
        writers instead (and the write is conditional on the version either way)."""
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = [SeatRow(*values) for values in Seat.objects.filter(game_id=game_id)
                 .order_by("number").values_list(*SEAT_FIELDS)]
        return Locked(game, {s.number: s for s in seats},
                      game.full_log() if with_log else None)

    def lock_by_link(self, token: str, *,
                     with_log: bool = False) -> tuple[Seat, Locked] | None:
        seat = find_seat(token)
        if seat is None:
            return None
        return seat, self.lock_game(seat.game_id, with_log=with_log)

    def write_move(self, row: MoveRow, game_values: dict[str, Any], version: int) -> Written:
        # The conditional update first: when another move came first nothing is written.
        if not Game.objects.filter(pk=row["game"], version=version).update(**game_values):
            return Written(0, None)
        move = Move.objects.create(
            game_id=row["game"], number=row["number"], actor_kind=row["actor_kind"],
            seat_number=row["seat_number"], moderator_id=row["moderator"], move=row["move"],
            events=row["events"], created_at=row["created_at"])
        FollowUp.objects.create(game_id=row["game"], version=row["number"],
                                created_at=row["created_at"])
        return Written(1, move.pk)

    def remember(self, game_id: int, number: int, move_id: int, log: list[JSON]) -> None:
        """The reference reads every log whole."""


def queue_follow_up(game_id: int, version: int, when: datetime) -> None:
    """The follow-up of a game state no move led to (a game's start)."""
    FollowUp.objects.create(game_id=game_id, version=version, created_at=when)


@cache
def _fast() -> MoveStore:
    from games.moves.services.fast_move_store import FastMoveStore

    return FastMoveStore()


ORM_STORE = OrmMoveStore()


def store() -> MoveStore:
    """The store this database uses: the fast one on PostgreSQL (unless MOVE_STORE is
    "orm"), the reference elsewhere."""
    if connection.vendor == "postgresql" and getattr(settings, "MOVE_STORE", "fast") != "orm":
        return _fast()
    return ORM_STORE
