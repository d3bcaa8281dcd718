"""What an address chose on its home as its defaults (the setup page starts a new seat of
this address with them)."""

from __future__ import annotations

from dataclasses import dataclass

from games.models.home_links import HomeLink, home_address, home_row


@dataclass(frozen=True)
class Preferences:
    language: str  # a code of settings.LANGUAGES, or "" when not chosen
    time_zone: str  # an IANA zone name, or "" when not chosen


def preferences_for(address: str) -> Preferences | None:
    """The address's chosen defaults, or None when it never chose any on its home."""
    row = HomeLink.objects.filter(address=home_address(address)).only(
        "language", "time_zone").first()
    if row is None or not (row.language or row.time_zone):
        return None
    return Preferences(language=row.language, time_zone=row.time_zone)


def remember(address: str, language: str, time_zone: str) -> None:
    """Keep the address's defaults (made with its home link row if need be)."""
    row = home_row(address)
    HomeLink.objects.filter(pk=row.pk).update(language=language, time_zone=time_zone)
