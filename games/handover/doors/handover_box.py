"""`{% handover_box %}`: the seat page's "find someone for my seat" box (games.handover).

Context: seat, secret, game. Shows, while the game is under way: a button to look for
someone to take the seat (or, once it looks, to stay after all), and for every seat of
the game that looks for a new player a form to send its offer to someone.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.game.core.game import Game
from games.handover.core.handover_rows import RUNNING, OpenSeat
from games.handover.doors.handover_forms import InviteToSeatForm
from games.seats.core.seat import Seat

register = template.Library()


@register.inclusion_tag("games/_handover.html", takes_context=True)
def handover_box(context: template.Context) -> dict[str, Any]:
    seat: Seat = context["seat"]
    game: Game = context["game"]
    running = game.status in RUNNING
    # Their seats in a second query, only when some seat is open (most pages: none).
    rows = list(OpenSeat.objects.filter(game_id=game.pk, closed_at__isnull=True)
                .prefetch_related("seat").order_by("seat__number")) if running else []
    mine = next((row for row in rows if row.seat_id == seat.pk), None)
    return {
        "seat": seat, "secret": context["secret"], "running": running, "mine": mine,
        "while_open": game.while_seat_open,  # what the game does until someone takes over
        "open": [{"row": row, "form": InviteToSeatForm(initial={"open_seat": row.pk},
                                                       auto_id=f"invite{row.pk}_%s")}
                 for row in rows],
    }
