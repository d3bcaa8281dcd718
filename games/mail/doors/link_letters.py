"""Emails about access: "your private links" (one address's own seat links, and nothing
else), and the host's "confirm your game" (games.setup.services.web_setup).

Sent when a player takes their seat through a host's invitation link (the invitation link
dies, their own link comes to their mailbox), when `manage.py rotatelinks` replaces every
link, and when someone asks for the links of an address on the home page (only that
address's mailbox ever sees them; finished games are listed too, with their replays).
Params: {"seats": [seat id, ...]}; the links are rebuilt from the seats when the email is
written, never stored.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.game.core.game import GOING_ON, Game
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Letter, Skip, render
from games.people.core.home_links import home_link
from games.people.core.mailbox_keys import of_mailbox
from games.seats.core.links import confirm_link, host_link, link_for
from games.seats.core.seat import Seat

# A finished game's page keeps its replay and record: its link is still worth having.
LISTED = (*GOING_ON, Game.Status.FINISHED)


def links(note: Notification) -> Letter:
    ids = note.params.get("seats") or ([note.seat_id] if note.seat_id else [])
    found = {seat.pk: seat for seat in Seat.objects.select_related("game").filter(
        of_mailbox(note.to_email), pk__in=ids, game__status__in=LISTED)}
    seats = [found[pk] for pk in ids if pk in found]  # in the order asked: going on first
    if not seats:
        raise Skip("no seat of this address any more")
    rows = [{"game": seat.game.title, "name": seat.name_shown, "number": seat.number,
             "link": link_for(seat), "over": seat.game.status == Game.Status.FINISHED}
            for seat in seats]
    for row in rows:
        if row["over"]:
            row["replay"] = f"{row['link']}replay/"
    subject = (_("Your private link for %(game)s") % {"game": seats[0].game.title}
               if len(rows) == 1 else _("Your private links to %(n)s Saboteur games")
               % {"n": len(rows)})
    return render("links", subject, {"rows": rows, "reason": note.params.get("reason", ""),
                                     "game": seats[0].game if len(rows) == 1 else None,
                                     "home": home_link(note.to_email)})


def confirm_setup(note: Notification) -> Letter:
    """To the address a host gave on the setup page. It carries none of the host's text
    (game or player names): whoever typed someone else's address sends them nothing but
    a neutral question they can ignore."""
    game = note.game
    if game is None or game.status != Game.Status.SETUP or game.host_confirmed_at:
        raise Skip("the game is confirmed or gone")
    subject = _("Confirm your new Saboteur game")
    return render("confirm_setup", subject, {
        "link": confirm_link(game), "host_link": host_link(game),
        "players": game.seats.filter(kind="person").count()})
