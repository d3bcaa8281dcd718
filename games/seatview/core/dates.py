"""Moments and durations as a reader reads them: in their time zone and language, the
zone named (pages and emails use these functions)."""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

from django.utils import formats, timezone, translation
from django.utils.timesince import timeuntil


def local_time(moment: datetime | None, zone: ZoneInfo) -> str:
    """A moment in the reader's time zone and language, with the zone named (pages and
    emails use this one function); empty when there is no moment."""
    if moment is None:
        return ""
    return _local_time(moment, zone, translation.get_language())


# A page writes the same moments on every refresh (each line of table talk): the words
# depend on nothing but the moment, the zone and the language.
@lru_cache(maxsize=4096)
def _local_time(moment: datetime, zone: ZoneInfo, language: str | None) -> str:
    shown = timezone.localtime(moment, zone)
    text = formats.date_format(shown, "DATETIME_FORMAT")
    if shown.day == 1 and language == "it":
        text = FIRST_OF_THE_MONTH.sub(r"\g<1>1º ", text, count=1)  # "1º dicembre"
    return f"{text} ({zone.key})"


def moderators_zone() -> ZoneInfo:
    """The zone moderators read times in: the site's (TIME_ZONE), which the admin's pages
    show too. Nothing stores a moderator's own zone."""
    return timezone.get_default_timezone()


def moderator_time(moment: datetime | None) -> str:
    """A moment as the moderators read it (admin pages, their emails)."""
    return local_time(moment, moderators_zone())


# Italian writes the first of a month as an ordinal ("martedì 1º dicembre").
FIRST_OF_THE_MONTH = re.compile(r"(^|\s)1 (?=\w)")


def time_left(moment: datetime, now: datetime | None = None) -> str:
    return timeuntil(moment, now or timezone.now(), depth=2)
