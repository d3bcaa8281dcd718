"""The home page's words and times: in the language and time zone the address chose on
its home, else those of its latest game (the page is read by one person)."""

from __future__ import annotations

import zoneinfo
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.game.core.game import GOING_ON, EmailMode
from games.home.services.challenges_part import challenges_section
from games.home.services.listing import Home, Row, home_of
from games.home.services.tables_part import tables_section
from games.home.services.theme import theme_choices
from games.home.services.tournaments_part import tournaments_section
from games.people.core.home_links import home_choices
from games.people.core.home_links import home_path as home_path
from games.push.services.alerts_section import alerts_section
from games.ratings.services.player_record import home_section
from games.seats.core.seat import seats_of
from games.seatview.core.dates import local_time
from games.seatview.core.words import days_and_hours
from games.setup.core.player_defaults import default_preferences

LANGUAGES = {code for code, _label in settings.LANGUAGES}


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def language_and_zone(address: str) -> tuple[str, str]:
    """The home's language and zone: the address's chosen defaults, else its newest
    seat's, else the reader's language and UTC."""
    chosen = default_preferences(address)
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


def _shown(row: Row, zone: Any, now: datetime | None = None) -> dict[str, Any]:
    away = row.away_until is not None and row.away_until > (now or timezone.now())
    return {"row": row, "deadline": local_time(row.deadline, zone),
            "since": local_time(row.since, zone),
            "finished": local_time(row.finished_at, zone),
            "away_until": local_time(row.away_until, zone) if away else "",
            "vacation_left": vacation_left_words(row.vacation_left),
            "winners": ", ".join(row.winners)}


def saved_words(count: int, *, kept_for_new_games: bool = False) -> str:
    """What a setting saved on the home did: in how many games going on (said in words,
    never "(0)"), and whether the games joined later start with it too (the language and
    time zone are kept as the address's defaults; the other settings live on the seats)."""
    if kept_for_new_games:
        if not count:
            return _("Saved: the games you join from now on start with this language and "
                     "time zone.")
        return ngettext("Saved for your game going on and the games you join from now on.",
                        "Saved for your %(n)s games going on and the games you join from now "
                        "on.", count) % {"n": count}
    if not count:
        return _("Nothing was changed: this setting applies to the games going on, and you "
                 "have none.")
    return ngettext("Saved for your game going on.", "Saved for your %(n)s games going on.",
                    count) % {"n": count}


def vacation_left_words(left: timedelta | None) -> str:
    """"7 days of vacation left", "2 days, 5 hours of vacation left"; "" before the game
    starts."""
    if left is None:
        return ""
    return _("%(left)s of vacation left") % {"left": days_and_hours(left)}


def context(address: str, token: str, *, challenge_to: str = "") -> dict[str, Any]:
    """Everything the home template shows (three group queries), in the language and zone
    home_locale made current; `challenge_to`: a public name for the challenge form."""
    home: Home = home_of(address)
    language = translation.get_language()
    zone = timezone.get_current_timezone()
    zone_name = getattr(zone, "key", "UTC")
    now = timezone.now()
    data = home_section(address)
    choices = home_choices(address)  # the "next game" switch and the theme, one read
    return {
        "address": address, "token": token,
        "your_turn": [_shown(row, zone, now) for row in home.your_turn],
        "waiting_for_you": [_shown(row, zone, now) for row in home.waiting_for_you],
        "waiting": [_shown(row, zone, now) for row in home.waiting],
        "finished": [_shown(row, zone, now) for row in home.finished],
        "left": [_shown(row, zone, now) for row in home.left],
        "language": language, "zone": zone_name, "modes": EmailMode.choices,
        "email_mode": usual_email_mode([*home.your_turn, *home.waiting_for_you,
                                        *home.waiting]),
        **usual_email_options(address),
        "languages": settings.LANGUAGES,
        "vacation_choices": vacation_choices(home.started, now),
        "away": any(row.away_until and row.away_until > now for row in home.started),
        # The next game in one tap (games.home.services.next_game): its count and switch.
        "next_game_offered": choices.next_game_offered,
        # The pages' colours (games.home.services.theme), written on <html> by base.html.
        "theme": choices.theme, "themes": theme_choices(),
        # The same games as next_game.waiting_seats, counted from the groups already read.
        "next_game_count": len(home.your_turn) + len(home.waiting_for_you),
        **data,  # my record, my data (games.ratings.services.player_record, export)
        **tables_section(address, data["record"]),  # play with strangers (games.tables)
        **tournaments_section(address),  # the events (games.tournaments)
        **challenges_section(address, challenge_to),  # challenges (games.challenges)
        **alerts_section(address),  # alerts by web push on this person's devices (games.push)
    }


def usual_email_mode(rows: list[Row]) -> str:
    """The email setting most of the games going on have (the form starts with it)."""
    modes = Counter(row.email_mode for row in rows)
    return modes.most_common(1)[0][0] if modes else EmailMode.EACH_TURN


def usual_email_options(address: str) -> dict[str, Any]:
    """The email options most games going on have (both on when there is none), and the
    quiet hours (games.clock.services.quiet_hours: the same in every game going on) in the one
    query."""
    rows = list(seats_of(address).filter(game__status__in=GOING_ON)
                .values_list("talk_in_emails", "skip_seen_turns", "quiet_from", "quiet_to"))
    chosen = [(t, s) for t, s, _f, _u in rows]
    half = len(chosen) / 2
    quiet = next(((f, u) for _t, _s, f, u in rows if f is not None and u is not None), None)
    return {"talk_in_emails": not chosen or sum(t for t, _s in chosen) >= half,
            "skip_seen_turns": not chosen or sum(s for _t, s in chosen) >= half,
            "quiet": quiet, "hours": range(24)}


VACATION_DAYS = (1, 2, 3, 5, 7, 10, 14, 21, 30)


def vacation_choices(started: list[Row], now: datetime) -> list[tuple[str, str]]:
    """The lengths some game going on can still give (a game already on vacation gives
    none): a few whole days up to the largest budget left, and that budget itself; each
    says in how many of the games it fits when that is not all of them. A length no game
    can give (14 days against budgets of 7) is never offered."""
    budgets = [row.vacation_left for row in started if row.vacation_left is not None
               and not (row.away_until and row.away_until > now)]
    whole = sorted({int(left.total_seconds() // 86400) for left in budgets} - {0})
    if not whole:
        return []
    days = sorted({d for d in VACATION_DAYS if d <= whole[-1]} | set(whole))
    choices = []
    for length in days:
        fits = sum(1 for left in budgets if left >= timedelta(days=length))
        label = ngettext("%(n)s day", "%(n)s days", length) % {"n": length}
        if fits < len(budgets):
            label = ngettext("%(label)s (in %(fits)s game of %(games)s)",
                             "%(label)s (in %(fits)s games of %(games)s)", fits) % {
                "label": label, "fits": fits, "games": len(budgets)}
        choices.append((str(length * 24), label))
    return choices
