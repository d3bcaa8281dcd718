"""Each seat's language and time zone at setup (the setup page, `creategame`, a rematch).

What a player asked for at setup comes first; then what their address chose for all its
games on its home; then the choice the host made for the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.people.core.home_links import HomeLink, home_row
from games.people.core.mailbox_keys import of_mailbox


@dataclass(frozen=True)
class Preferences:
    """What an address chose for all its games (empty: no choice made)."""

    language: str = ""
    time_zone: str = ""


def default_preferences(address: str) -> Preferences | None:
    """What `address` chose on its home (games.home: kept on its home link's row), or
    None when it chose nothing."""
    row = (HomeLink.objects.filter(of_mailbox(address))
           .values_list("language", "time_zone").first())
    if row is None or not (row[0] or row[1]):
        return None
    return Preferences(language=row[0], time_zone=row[1])


def seat_language_and_zone(email: str, *, language: str = "", time_zone: str = "",
                           game_language: str = "en",
                           game_time_zone: str = "UTC") -> tuple[str, str]:
    """(language, time zone) of the seat of `email`: given for this seat, else the
    address's own choice, else the game's. A bot (no address) takes the game's."""
    chosen = default_preferences(email) if email and not (language and time_zone) else None
    if chosen is not None:
        language = language or chosen.language
        time_zone = time_zone or chosen.time_zone
    return language or game_language, time_zone or game_time_zone


def remember_preferences(address: str, language: str, time_zone: str) -> None:
    """Keep what the address chose on its home as its defaults (made with its home link
    row if need be)."""
    row = home_row(address)
    HomeLink.objects.filter(pk=row.pk).update(language=language, time_zone=time_zone)
