"""`{% suspicion_sheet %}`: the seat page's private notes, one form for each other seat
(a mark, a line, the public actions that seat took this round, the earlier rounds'
notes), built from the seat's own view (games.notes.services.sheet). Shown to the seat's
own link only: never to a spectator, nor through an invitation link; read-only once the
game is over."""

from __future__ import annotations

from typing import Any

from django import template

from games.game.core.game import GOING_ON, Game
from games.notes.core.sheet_rows import MAX_NOTE_LENGTH, Mark
from games.notes.services.sheet import sheet_of
from games.seats.core.seat import Seat

register = template.Library()


@register.inclusion_tag("games/_sheet.html", takes_context=True)
def suspicion_sheet(context: template.Context) -> dict[str, Any]:
    """Context: game, seat, view, names, secret."""
    game: Game = context["game"]
    seat: Seat | None = context.get("seat")
    if seat is None or not seat.email or getattr(seat, "via_invitation", False) \
            or game.status in (Game.Status.SETUP, Game.Status.CANCELLED):
        return {"sheet": []}
    return {"sheet": sheet_of(seat, context["view"], context["names"]),
            "secret": context.get("secret", ""), "open": game.status in GOING_ON,
            "marks": Mark.choices, "max_length": MAX_NOTE_LENGTH,
            "round": context["view"].get("round") or 1}
