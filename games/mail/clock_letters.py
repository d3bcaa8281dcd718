"""The clock's own email: a nudge, one short email naming who is waiting."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.mail.letters import Skip, deadline_context, render, seat_context
from games.mail.message import Letter
from games.models import Game, Notification, Seat


def nudge(note: Notification) -> Letter:
    seat, game = note.seat, note.game
    if seat is None or game is None:
        raise Skip("the seat or game is gone")
    if (game.status != Game.Status.ACTIVE or game.actor != seat.number
            or game.version != note.params.get("version")):
        raise Skip("the turn is over")
    by = Seat.objects.filter(game=game, number=note.params.get("by")).first()
    who = by.player_name if by is not None else "?"
    subject = _("%(game)s: %(who)s is waiting for your move") % {"game": game.title,
                                                                "who": who}
    return render("nudge", subject, {**seat_context(note, seat, game),
                                     **deadline_context(game, seat), "who": who})
