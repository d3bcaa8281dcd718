"""`{% rematch_box %}`: on a seat page, the rematch of a finished game (or the button to
propose one) and the game a rematch replays. Context: game, seat, secret. Other games
are named and linked only by their public pages (a replay or the spectators' page when
the game allows spectators), never by a seat's link."""

from __future__ import annotations

from typing import Any

from django import template

from games.game.core.game import Game, SeatKind
from games.seats.core.seat import Seat
from games.setup.services.rematch import rematch_pair as find_rematch_pair

register = template.Library()


@register.inclusion_tag("games/_rematch.html", takes_context=True)
def rematch_box(context: template.Context) -> dict[str, Any]:
    game: Game = context["game"]
    seat: Seat = context["seat"]
    found = find_rematch_pair(game)
    return {
        "game": game, "secret": context["secret"], "pair": found,
        # A person with an address (the service's own rule): a lesson's learner has none.
        "can_propose": (game.status == Game.Status.FINISHED and found.rematch is None
                        and seat.kind == SeatKind.PERSON and bool(seat.email)),
    }


@register.inclusion_tag("games/_rematch_links.html", takes_context=True)
def rematch_links(context: template.Context) -> dict[str, Any]:
    """The replay page's header line: the game's rematch and the game it replays, linked by
    their public pages only. Context: game."""
    return {"pair": find_rematch_pair(context["game"])}
