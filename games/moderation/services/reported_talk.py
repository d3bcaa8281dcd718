"""A reported line of table talk in its context, as the moderators read it (the admin's
dispute pages, the game's moderation page, their emails): each line named after whoever
held its seat when it was written (games.seatview.services.holders: a line written before a
takeover keeps its writer, a forgotten writer is "a former player"), its time in the
moderators' zone.

The context stored with the dispute (games.moderation.services.talk_reports) keeps each line's id,
seat, time and text, no name: the names are worked out when read, so "forget me" and the
seat's history are obeyed whenever the report is looked at.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games.kit.seat_numbers import shown_seat_of
from games.moderation.core.moderation_rows import Dispute
from games.seatview.core.dates import moderator_time
from games.seatview.services.holders import TableNames, table_names


@dataclass(frozen=True)
class ContextLine:
    seat: str  # "seat 2"
    name: str  # who held the seat when the line was written
    at: str  # when, in the moderators' zone
    text: str
    reported: bool


def _moment(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


def context_lines(dispute: Dispute, names: TableNames | None = None) -> list[ContextLine]:
    """The dispute's reported line among the lines around it, oldest first (none for a
    dispute that is no report of a line)."""
    if not dispute.talk_context:
        return []
    names = names if names is not None else table_names(dispute.game, moderator=True)
    return [ContextLine(seat=_("seat %(n)s") % {"n": shown_seat_of(line.get("seat"))},
                        name=names.talker(int(line.get("seat", 0)), int(line.get("id", 0))),
                        at=moderator_time(_moment(line.get("at"))),
                        text=str(line.get("text", "")), reported=bool(line.get("reported")))
            for line in dispute.talk_context]
