"""The answer to a move by email (planned by `games.inbound.services.answer`): what was done and
why, in the seat's language, threaded under the player's reply. After a move made it also
shows, like a turn email, the game's name, the seat's link and the maze as it is now; when
the seat is to act (again) it carries a fresh Reply-To for the next move.
"""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext as _

from games import engine
from games.game.core.game import Game
from games.mail.core.message import Letter
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Skip, names_of, render, seat_context
from games.mail.doors.reply_part import reply_part
from games.seatview.core import maze_drawing


def answer(note: Notification) -> Letter:
    seat, game = note.seat, note.game
    if seat is None or game is None:
        raise Skip("the seat or game is gone")
    params = note.params
    subject = str(params.get("subject") or "") or _("%(game)s: your email") % {"game": game.title}
    state = game.state()
    view = engine.view(state, seat.number)
    to_act = game.status == Game.Status.ACTIVE and game.actor == seat.number
    reply = reply_part(seat, game, state, view, dict(names_of(game))) if to_act else None
    letter = render("answer", subject, {
        **seat_context(note, seat, game),
        "lines": [str(line) for line in params.get("lines") or []],
        "moved": bool(params.get("moved")), "unread": bool(params.get("unread")),
        "maze_html": maze_drawing.maze_html(view), "maze_text": maze_drawing.maze_text(view),
        "reply_help": reply.help if reply else [],
    })
    return replace(letter, reply_to=reply.address if reply else "",
                   in_reply_to=str(params.get("in_reply_to") or ""))
