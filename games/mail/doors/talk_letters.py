"""The letter of a talk line calling its reader by `@name`: who said
it, when, the line itself (talk is public to the table), and the seat's link to answer.
Skipped when the reader has muted the writer since, or the line is gone."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.game.core.talk_and_notices import Message
from games.mail.core.message import Letter, Skip
from games.mail.core.notifications import Notification
from games.mail.doors.letters import names_of, render, seat_context
from games.seatview.core.dates import local_time
from games.talk.core.mutes import muted_seats


def mention(note: Notification) -> Letter:
    seat, game = note.seat, note.game
    if seat is None or game is None:
        raise Skip("the seat or game is gone")
    line = Message.objects.select_related("seat").filter(
        pk=note.params.get("line"), game=game).first()
    if line is None or line.seat.number in muted_seats(seat):
        raise Skip("the line is gone or its writer muted")
    who = names_of(game).talker(line.seat.number, line.pk)
    subject = _("%(game)s: %(who)s wrote to you in the table talk") % {
        "game": game.title, "who": who}
    context = seat_context(note, seat, game)
    return render("mention", subject, {
        **context, "who": who, "when": local_time(line.created_at, seat.zone),
        "text": line.text, "talk_link": context["link"] + "#unread"})
