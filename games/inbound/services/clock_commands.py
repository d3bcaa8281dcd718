"""The clock's email commands: `nudge` (the seat to act) and `pause` (the table's pause:
`pause 3 Easter trip` proposes 3 days, `pause agree`, `pause end`). They change no move,
so they count whatever the version of the email answered; each such line of a reply is
carried out or refused on its own (games.inbound.services.apply).

    clock_line(seat, line) -> Done     what became of the line, in the answer's words
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.clock.services import nudges, table_pause
from games.inbound.core.commands import Line
from games.kit.service_errors import ServiceError
from games.seatview.core import command_words as kw


@dataclass(frozen=True)
class Done:
    """What became of one line: carried out (`ok`) or not, a short code for the record,
    and the answer's sentence."""

    ok: bool
    code: str
    sentence: str


def clock_line(seat_id: int, line: Line) -> Done:
    """Carry out a `nudge` or `pause` line for the seat, or say why nothing was done."""
    parts = line.text.strip().split(None, 1)
    rest = parts[1] if len(parts) > 1 else ""
    try:
        if line.verb == "nudge":
            nudges.nudge(seat_id)
            return Done(ok=True, code="nudge",
                        sentence=_("The player to act has been nudged by email."))
        return Done(ok=True, code="pause", sentence=_pause(seat_id, rest))
    except ServiceError as refused:
        reason = _("Nothing was done: %(reason)s") % {"reason": refused.message}
        return Done(ok=False, code=refused.code, sentence=reason)


def _pause(seat_id: int, rest: str) -> str:
    word = kw.fold(rest).split()[:1]
    if word and word[0] in kw.all_words(kw.AGREE):
        table_pause.agree(seat_id)
        return _("You agreed to the pause.")
    if word and word[0] in kw.all_words(kw.END):
        table_pause.end(seat_id)
        return _("Your wish to end the pause is noted.")
    days, _space, reason = rest.strip().partition(" ")
    table_pause.propose(seat_id, _number(days), reason)
    return _("Your pause is proposed to the table.")


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ServiceError("bad_pause", _(
            "Write the pause as: pause 3 Easter trip (days, then the reason).")) from None
