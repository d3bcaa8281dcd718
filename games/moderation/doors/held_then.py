"""Who held a seat when a listed row happened (a line of table talk, a move, a dispute
filed), read in the list's own query: a subquery per column into the seat's history
(games.seats.core.history), today's holder when the seat never changed hands since.

A list shows a hundred rows; asking games.seatview.services.holders row by row would be a query
each.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Expression, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from games.game.core.game import SeatKind
from games.seats.core.history import PastHolder, holders_at_move
from games.seats.core.seat import Seat
from games.seatview.services.holders import table_name

NAME = "holder_then"
BOT = "holder_then_bot"


def _first(rows: Any, field: str) -> Subquery:
    return Subquery(rows.order_by("id").values(field)[:1])


def _annotations(earlier: Any, seat_now: Any) -> dict[str, Expression]:
    return {NAME: Coalesce(_first(earlier, "name"), _first(seat_now, "player_name")),
            BOT: Coalesce(_first(earlier, "bot"), _first(seat_now, "bot_now"))}


def by_message() -> dict[str, Expression]:
    """For Message rows: the holder in whose time the line was written."""
    earlier = PastHolder.objects.filter(seat_id=OuterRef("seat_id"),
                                        until_message__gte=OuterRef("pk"))
    seat_now = Seat.objects.filter(pk=OuterRef("seat_id")).annotate(
        bot_now=Q(kind=SeatKind.BOT))
    return _annotations(earlier, seat_now)


def by_move() -> dict[str, Expression]:
    """For Move rows: the holder of the move's seat for that move."""
    earlier = holders_at_move(PastHolder.objects.filter(game_id=OuterRef("game_id"),
                                                        number=OuterRef("seat_number")),
                              OuterRef("number"))
    seat_now = Seat.objects.filter(game_id=OuterRef("game_id"),
                                   number=OuterRef("seat_number")).annotate(
        bot_now=Q(kind=SeatKind.BOT))
    return _annotations(earlier, seat_now)


def by_filing() -> dict[str, Expression]:
    """For Dispute rows: the holder of the filer's seat when it was filed."""
    earlier = PastHolder.objects.filter(seat_id=OuterRef("seat_id"),
                                        created_at__gt=OuterRef("created_at"))
    seat_now = Seat.objects.filter(pk=OuterRef("seat_id")).annotate(
        bot_now=Q(kind=SeatKind.BOT))
    return _annotations(earlier, seat_now)


def name_then(row: Any) -> str:
    """The annotated holder's name as the table names them ("Ann", "Hal (bot)", "a former
    player"); "" for a row of no seat."""
    name = getattr(row, NAME, None)
    return table_name(name, bot=bool(getattr(row, BOT, False))) if name is not None else ""
