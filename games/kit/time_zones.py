"""The time zones the server knows: those of the IANA database as the server has it."""

from __future__ import annotations

import functools
import zoneinfo

# Names the zone folder may hold that are no place's time ("localtime" is the machine's
# own, "Factory" a placeholder of the database).
NOT_ZONES = frozenset({"localtime", "posixrules", "Factory"})


@functools.cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones()) - NOT_ZONES


def valid_time_zone(name: str) -> bool:
    """A zone of the IANA database as the server has it (not a file name that happens to
    open, like "localtime" or "posixrules")."""
    return name in known_zones()
