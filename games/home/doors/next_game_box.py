"""`{% next_game_box %}`: on a seat page, "Next game waiting for you (n)". The button
posts to the person's own home (/me/<token>/next), which redirects to the most urgent
seat: the page carries no other seat's link, only its owner's home's, which its emails
carry too. Shown once the move here is made (not while this seat is to act), to a
person's seat whose home exists and who has not turned the offer off."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from games.game.core.game import Game
from games.home.services.next_game import waiting_count
from games.people.core.home_links import HomeChoices, home_choices
from games.seats.core.seat import Seat

register = template.Library()


@register.inclusion_tag("games/_next_game.html", takes_context=True)
def next_game_box(context: template.Context) -> dict[str, Any]:
    """Context: game, seat, my_turn; home_choices when the page has read the seat's
    person's home already."""
    game: Game = context["game"]
    seat: Seat | None = context.get("seat")
    nothing: dict[str, Any] = {"count": 0}
    if seat is None or not seat.email or context.get("my_turn"):
        return nothing
    choices: HomeChoices = context.get("home_choices") or home_choices(seat.email)
    if not choices.next_game_offered:
        return nothing
    home = choices.token()
    count = waiting_count(seat.email, after_game=game.public_id) if home else 0
    if not home or not count:
        return nothing
    return {"count": count, "game": game,
            "action": reverse("games:me-next", args=[home])}
