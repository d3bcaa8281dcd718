"""What the home's "Alerts" section shows (games.home.services.page): the person's
devices with their kinds, the push-only choice and its window, and what the page's
script needs to turn alerts on (the VAPID public key, the devices' API)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import ngettext

from games.push.core.push_rows import AlertKind
from games.push.services.devices import FALLBACK_CHOICES, choice_of, devices_of


def window_words(minutes: int) -> str:
    if minutes % 60 == 0:
        return ngettext("%(n)s hour", "%(n)s hours", minutes // 60) % {"n": minutes // 60}
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


def alerts_section(address: str) -> dict[str, Any]:
    choice = choice_of(address)
    return {
        "alerts_on_server": bool(settings.VAPID_PUBLIC_KEY),
        "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        "alert_kinds": AlertKind.choices,
        "alert_default_kinds": [AlertKind.TURN, AlertKind.DEADLINE, AlertKind.START_END],
        "alert_devices": devices_of(address),
        "push_only": choice.push_only,
        "fallback_minutes": choice.fallback_minutes,
        "fallback_choices": [(m, window_words(m)) for m in FALLBACK_CHOICES],
    }
