"""`{{ moment|moderator_time }}` in the admin's own pages (the moderation page, the undo's
confirmation): a moment in the moderators' zone, written as every page writes dates
(games.seatview.core.dates.moderator_time), "—" for none."""

from __future__ import annotations

from datetime import datetime

from django import template

from games.seatview.core.dates import moderator_time as written

register = template.Library()


@register.filter
def moderator_time(moment: datetime | None) -> str:
    return written(moment) or "—"
