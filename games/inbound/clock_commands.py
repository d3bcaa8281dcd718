"""The clock's email commands: `nudge` (the seat to act) and `pause` (the table's pause:
`pause 3 Easter trip` proposes 3 days, `pause agree`, `pause end`). They change no move,
so they count whatever the version of the email answered; the first command line of a
reply decides whether it is one of them (then nothing else in the reply is read).

    clock_command(seat, lines) -> Result | None   (None: not a clock command)
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from games.inbound.commands import Command, CommandError, parse_line
from games.models import InboundMail, Seat
from games.play.clock import nudges, table_pause
from games.play.service_errors import ServiceError
from games.present import command_words as kw

Outcome = InboundMail.Outcome
Answer = tuple[str, str, list[str]]  # outcome, detail, lines


def first_command(lines: list[str]) -> tuple[Command, str] | None:
    """The reply's first command and the words after its verb as written."""
    language = (translation.get_language() or "en")[:2]
    for line in lines:
        try:
            command = parse_line(line, language)
        except CommandError:
            return None
        if command is not None:
            parts = line.strip().split(None, 1)
            return command, parts[1] if len(parts) > 1 else ""
    return None


def clock_command(seat: Seat, lines: list[str]) -> Answer | None:
    found = first_command(lines)
    if found is None or found[0].verb not in ("nudge", "pause"):
        return None
    command, rest = found
    try:
        if command.verb == "nudge":
            nudges.nudge(seat.pk)
            return Outcome.TALK, "nudge", [_("The player to act has been nudged by email.")]
        return Outcome.TALK, "pause", [_pause(seat, rest)]
    except ServiceError as refused:
        return Outcome.REFUSED, refused.code, [
            _("Nothing was done: %(reason)s") % {"reason": refused.message}]


def _pause(seat: Seat, rest: str) -> str:
    word = kw.fold(rest).split()[:1]
    if word and word[0] in kw.all_words(kw.AGREE):
        table_pause.agree(seat.pk)
        return _("You agreed to the pause.")
    if word and word[0] in kw.all_words(kw.END):
        table_pause.end(seat.pk)
        return _("Your wish to end the pause is noted.")
    days, _space, reason = rest.strip().partition(" ")
    table_pause.propose(seat.pk, _number(days), reason)
    return _("Your pause is proposed to the table.")


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ServiceError("bad_pause", _(
            "Write the pause as: pause 3 Easter trip (days, then the reason).")) from None
