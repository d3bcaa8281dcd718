"""What an address chose on its home as its defaults: the setup page, `creategame` and a
rematch start a new seat of this address with them (games.play.player_defaults reads
them; this is the home's side, which keeps them)."""

from __future__ import annotations

from games.models.home_links import HomeLink, home_row
from games.play.player_defaults import Preferences, default_preferences

__all__ = ["Preferences", "preferences_for", "remember"]


def preferences_for(address: str) -> Preferences | None:
    """The address's chosen defaults (language, time_zone; "" where not chosen), or None
    when it never chose any on its home."""
    return default_preferences(address)


def remember(address: str, language: str, time_zone: str) -> None:
    """Keep the address's defaults (made with its home link row if need be)."""
    row = home_row(address)
    HomeLink.objects.filter(pk=row.pk).update(language=language, time_zone=time_zone)
