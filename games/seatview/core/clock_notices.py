"""The table notices of the clock (games.clock.services.nudges, table_pause) as sentences
every seat may read: "Ann was nudged by Bert", a pause proposed, agreed, started, over.

Its own module: games.seatview.core.describe, which calls it, is at its size limit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.seatview.core.words import Names, seat_name


def nudge_notice(p: Mapping[str, Any], names: Names) -> str:
    return _("%(who)s was nudged by %(by)s") % {"who": seat_name(p.get("seat"), names),
                                               "by": seat_name(p.get("by"), names)}


def pause_notice(p: Mapping[str, Any], names: Names) -> str:
    who = seat_name(p.get("seat"), names)
    words = {"proposed": _("%(who)s proposes a pause of %(days)s days: %(reason)s"),
             "agreed": _("%(who)s agrees to the pause"),
             "started": _("The table agreed: the game is paused for %(days)s days; no clock "
                          "runs"),
             "ended": _("The pause is over; the clocks run again")}
    return words.get(str(p.get("step")), words["ended"]) % {
        "who": who, "days": p.get("days"), "reason": p.get("reason")}
