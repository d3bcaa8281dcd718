"""The table's pause proposal, emailed to each player who decides on it
(games.clock.services.table_pause): who proposes how long and why, how many have agreed of
how many needed, when it lapses (in the reader's zone), and how to agree. It has a reply
address of the seat's own, like a turn email's, so replying `pause agree` agrees."""

from __future__ import annotations

from dataclasses import replace

from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.clock.core import clock_facts
from games.game.core.aliases import holder_name
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Letter, Skip, render, seat_context
from games.seats.core import reply_tokens
from games.seatview.core import command_words as kw
from games.seatview.core.dates import local_time


def pause_proposal(note: Notification) -> Letter:
    seat, game = note.seat, note.game
    if seat is None or game is None:
        raise Skip("the seat or game is gone")
    pause = game.pause or {}
    if (clock_facts.pause_state(game, timezone.now()) != "proposed"
            or pause.get("proposed_at") != note.params.get("proposed_at")):
        raise Skip("the proposal started, lapsed or was replaced")
    if seat.number in pause.get("agreed", []):
        raise Skip("the player agreed already")
    count = clock_facts.pause_count(game)
    if count is None:
        raise Skip("no proposal")
    by = game.seats.filter(number=int(pause.get("by", -1))).first()
    name = holder_name(game, by.number, by.player_name) if by is not None else "?"
    language = (translation.get_language() or seat.language)[:2]
    subject = _("%(game)s: %(name)s proposes a pause") % {"game": game.title, "name": name}
    letter = render("pause", subject, {
        **seat_context(note, seat, game), "by": name, "days": pause.get("days"),
        "reason": pause.get("reason", ""), "agreed": count.agreed, "needed": count.needed,
        "lapses": local_time(count.lapses_at, seat.zone),
        "agree": f"{kw.first(kw.VERBS['pause'], language)} {kw.first(kw.AGREE, language)}"})
    return replace(letter, reply_to=reply_tokens.issue(seat, game.version))
