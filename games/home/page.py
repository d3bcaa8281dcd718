"""The home page's words and times: in the language and time zone the address chose on
its home, else those of its latest game (the page is read by one person)."""

from __future__ import annotations

import zoneinfo
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import ngettext

from games.home.listing import Home, Row, home_of, seats_of
from games.home.preferences import preferences_for
from games.home.strangers import tables_section
from games.models import EmailMode
from games.models.home_links import home_path as home_path
from games.players.record import home_section
from games.present.facts import local_time

LANGUAGES = {code for code, _label in settings.LANGUAGES}


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def language_and_zone(address: str) -> tuple[str, str]:
    """The home's language and zone: the address's chosen defaults, else its newest
    seat's, else the reader's language and UTC."""
    chosen = preferences_for(address)
    language = chosen.language if chosen else ""
    zone = chosen.time_zone if chosen else ""
    if not (language and zone):
        newest = seats_of(address).order_by("-created_at").values_list(
            "language", "time_zone").first()
        if newest is not None:
            language, zone = language or newest[0], zone or newest[1]
    if language not in LANGUAGES:
        language = translation.get_language() or settings.LANGUAGE_CODE
    return language, zone or "UTC"


@contextmanager
def home_locale(address: str) -> Iterator[None]:
    language, zone = language_and_zone(address)
    with translation.override(language), timezone.override(_zone(zone)):
        yield


def _shown(row: Row, zone: Any) -> dict[str, Any]:
    return {"row": row, "deadline": local_time(row.deadline, zone),
            "since": local_time(row.since, zone),
            "finished": local_time(row.finished_at, zone)}


def context(address: str, token: str) -> dict[str, Any]:
    """Everything the home template shows (three group queries), in the language and zone
    home_locale made current."""
    home: Home = home_of(address)
    language = translation.get_language()
    zone = timezone.get_current_timezone()
    zone_name = getattr(zone, "key", "UTC")
    data = home_section(address)
    return {
        "address": address, "token": token,
        "your_turn": [_shown(row, zone) for row in home.your_turn],
        "waiting": [_shown(row, zone) for row in home.waiting],
        "finished": [_shown(row, zone) for row in home.finished],
        "language": language, "zone": zone_name, "modes": EmailMode.choices,
        "email_mode": usual_email_mode([*home.your_turn, *home.waiting]),
        "languages": settings.LANGUAGES, "vacation_choices": vacation_choices(),
        **data,  # my record, my data (games.players)
        **tables_section(address, data["record"]),  # play with strangers (games.tables)
    }


def usual_email_mode(rows: list[Row]) -> str:
    """The email setting most of the games going on have (the form starts with it)."""
    modes = Counter(row.email_mode for row in rows)
    return modes.most_common(1)[0][0] if modes else EmailMode.EACH_TURN


def vacation_choices() -> list[tuple[str, str]]:
    """A few lengths; each game gives what its own budget allows."""
    return [(str(days * 24), ngettext("%(n)s day", "%(n)s days", days) % {"n": days})
            for days in (1, 2, 3, 7, 14)]
