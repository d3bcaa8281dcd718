"""Which letter each kind of email gets: the one list of letter builders, filled when
Django starts (games.wiring) by each feature's doors with the letters it writes.

A Notification's words are written at send time (`letter_for`), in its recipient's
language and time zone (the moderators': the site's); a kind with no builder is skipped,
never sent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone, translation

from games.mail.core.message import Letter, Skip
from games.mail.core.notifications import Notification
from games.seatview.core.dates import moderators_zone

Builder = Callable[[Notification], Letter]
Kind = Notification.Kind

_BUILDERS: dict[str, Builder] = {}

# The emails to the moderators: their times in the moderators' zone (the site's).
TO_MODERATORS = frozenset({Kind.DISPUTE_FILED, Kind.REPORT_DIGEST, Kind.MODERATOR_ALERT})


def register_letters(builders: Mapping[str, Builder]) -> None:
    """Each kind has one builder: a second registration of a kind is a wiring mistake."""
    for kind, builder in builders.items():
        known = _BUILDERS.get(kind)
        if known is not None and known is not builder:
            raise ValueError(f"two letters for the kind {kind!r}")
        _BUILDERS[kind] = builder


def registered_kinds() -> frozenset[str]:
    return frozenset(_BUILDERS)


def letter_for(notification: Notification) -> Letter:
    builder = _BUILDERS.get(notification.kind)
    if builder is None:
        raise Skip(f"no email is written for kind {notification.kind!r}")
    seat = notification.seat
    # An email to no seat's player (a standby volunteer, an offer) names its language.
    language = str(notification.params.get("language") or "") or (
        seat.language if seat is not None else settings.LANGUAGE_CODE)
    zone = (seat.zone if seat is not None else moderators_zone()
            if notification.kind in TO_MODERATORS else ZoneInfo("UTC"))
    with translation.override(language), timezone.override(zone):
        return builder(notification)
