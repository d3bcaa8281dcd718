"""A game's story in the order things happened: the log's events with the table notices
(moderator acts, timeouts, vacations) in place, each player's move numbered as the Move
rows are (move N took the game from version N-1 to N), so the log, the dispute form and
the moderators all say "move 8" of the same move.

Each line names the players who held the seats when it happened (games.seatview.services.holders):
an event by its place in the log, a notice by its id.

A notice sits after the events there were when it was written (`log_at`). An undo
shortens the log, so a notice written before an undo may point past where the log now
ends: each notice is placed no later than any notice written after it (a suffix minimum),
which keeps every notice before the moves made again after the undo.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engine.types import LogEvent, SeatView
from games.kit.html_pieces import from_template, translated
from games.seatview.core.describe import Names, notice_sentence
from games.seatview.core.recent import view_log
from games.seatview.core.remembered_sentences import event_sentence, names_key
from games.seatview.services.holders import names_at_log, names_at_notice


class TableNotice(NamedTuple):
    """A table notice (GameNotice) as the log shows it: its kind, its parameters and its
    id (None when not known: today's names are used)."""

    kind: str
    params: Mapping[str, Any]
    id: int | None = None


@dataclass(frozen=True)
class Line:
    text: str
    number: int | None  # the move's number, for a player's (or the server's) move
    log_index: int  # events of the log before this line
    notice: bool = False
    # "Move 8:" in the reader's language, or "" (a page's log has hundreds of lines: the
    # words made once here, not by a template tag on every line).
    label: str = ""


def is_move(event: LogEvent) -> bool:
    """One event per Move row: a seat's decision (a payout, or a thief with nobody to rob
    skipped by the rules, is not one)."""
    if "seat" not in event or event.get("type") == "payout":
        return False
    return not (event.get("type") == "steal" and event.get("target") is None)


def _notice_positions(notices: Sequence[TableNotice], log_length: int) -> list[int]:
    positions = [min(int(notice.params.get("log_at", log_length)), log_length)
                 for notice in notices]
    for i in range(len(positions) - 2, -1, -1):
        positions[i] = min(positions[i], positions[i + 1])
    return positions


def timeline(view: SeatView, names: Names, notices: Sequence[TableNotice], *,
             since: int = 0) -> list[Line]:
    """Every line of the game's story, oldest first; `since`: only those from that log
    index on (the moves before are counted, not described: a turn email tells what
    happened since the seat's last turn, a few lines of a long log)."""
    log = view_log(view)
    positions = _notice_positions(notices, len(log))
    lines: list[Line] = []
    pending = list(zip(positions, notices, strict=True))
    number = 0
    today = names_key(names)
    move_said = _("Move %(n)s:")
    for index in range(len(log) + 1):
        while pending and pending[0][0] <= index:
            _at, notice = pending.pop(0)
            if index < since:
                continue
            then = names_at_notice(names, notice.id, notice.params)
            text: SafeString = format_html('<em class="table-notice">{}</em>',
                                           notice_sentence(notice.kind, notice.params, then))
            lines.append(Line(text=text, number=None, log_index=index, notice=True))
        if index < len(log):
            event = log[index]
            moved = is_move(event)
            if moved:
                number += 1
            if index < since:
                continue
            then = names_at_log(names, index)
            said = event_sentence(event, then, view["ruleset"], view.get("seat"),
                                  key_of_names=today if then is names else None)
            lines.append(Line(text=said, number=number if moved else None, log_index=index,
                              label=move_said % {"n": number} if moved else ""))
    return lines


def log_items(lines: Sequence[Line], fresh_from: int) -> SafeString:
    """The page's log list items (`lines` in the order shown), each line at or after
    `fresh_from` (games.seatview.core.recent.since) marked new, in words for a screen
    reader too. Written here, not by template tags on each of a page's hundreds of
    lines: `plain_log_items` is the reference the tests hold it to."""
    new = format_html('<span class="visually-hidden"> ({})</span>',
                      translated(_("new since your last move")))
    items = []
    for line in lines:
        fresh = line.log_index >= fresh_from
        label = (f'<span class="move-number">{conditional_escape(line.label)}</span> '
                 if line.label else "")
        # Plain strings: a late game's log has hundreds of lines, on every refresh.
        items.append(f'<li class="{"notice-line" if line.notice else ""}'
                     f'{" fresh" if fresh else ""}">{label}{conditional_escape(line.text)}'
                     f'{new if fresh else ""}</li>')
    return mark_safe("".join(items))  # noqa: S308  (every value escaped above)


def plain_log_items(lines: Sequence[Line], fresh_from: int) -> SafeString:
    """`log_items`, from the plain template it stands in for
    (templates/games/reference/log_items.html): the tests' reference
    (tests/web/test_seat_html_reference.py); no page uses it."""
    return from_template("games/reference/log_items.html",
                         {"log": lines, "fresh_from": fresh_from})
