"""`{% seat_emails %}`: the seat page's box for emails and vacation.

Context: seat, secret. Shows the email setting (each turn, digest, links only), a
bounce warning, and the vacation budget with a form to take or end a vacation.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.game.core.game import EmailMode, Game
from games.seats.core.seat import Seat
from games.seatview.core.dates import local_time
from games.seatview.core.words import days_and_hours

register = template.Library()


def vacation_choices(left: timedelta) -> list[tuple[str, str]]:
    """Whole days up to the budget, then what is left if that is not a whole day."""
    days = int(left.total_seconds() // 86400)
    choices = [(str(d * 24), ngettext("%(n)s day", "%(n)s days", d) % {"n": d})
               for d in range(1, days + 1)]
    hours = int(left.total_seconds() // 3600)
    if hours > days * 24:
        choices.append((str(hours), _("all I have left (%(left)s)") % {
            "left": days_and_hours(left)}))
    return choices


@register.inclusion_tag("games/_seat_emails.html", takes_context=True)
def seat_emails(context: template.Context) -> dict[str, Any]:
    seat: Seat = context["seat"]
    game: Game = context["game"]
    now = timezone.now()
    on_vacation = seat.vacation_until is not None and seat.vacation_until > now
    return {
        "seat": seat, "secret": context["secret"], "modes": EmailMode.choices,
        "on_vacation": on_vacation,
        "vacation_until": local_time(seat.vacation_until, seat.zone) if on_vacation
        and seat.vacation_until else "",
        "vacation_left": days_and_hours(seat.vacation_left),
        "vacation_choices": vacation_choices(seat.vacation_left),
        "game_over": game.status in (Game.Status.FINISHED, Game.Status.CANCELLED),
        "email_problem": seat.email_problem_at is not None,
    }
