"""Form fields and checks every feature's forms share: what people may type, time zones to
choose from (a select, or a box with a list as you type), a long select."""

from __future__ import annotations

import zoneinfo
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from django import forms
from django.forms.renderers import BaseRenderer
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games.kit import time_zones
from games.kit.text import is_clean_line, is_clean_message


def printable_text(value: str) -> None:
    """A name: visible characters on one line (no control, zero-width or bidi characters)."""
    if value and not is_clean_line(value):
        raise forms.ValidationError(_("Use visible letters and signs only, on one line."))


def printable_message(value: str) -> None:
    if value and not is_clean_message(value):
        raise forms.ValidationError(_("Use visible letters and signs only."))


# The zones most players pick, offered first.
COMMON_ZONES = [
    "UTC", "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Madrid", "Europe/Paris",
    "Europe/Brussels", "Europe/Amsterdam", "Europe/Berlin", "Europe/Zurich", "Europe/Rome",
    "Europe/Vienna", "Europe/Stockholm", "Europe/Warsaw", "Europe/Athens", "Europe/Helsinki",
    "Europe/Istanbul", "Europe/Moscow", "America/New_York", "America/Chicago",
    "America/Denver", "America/Los_Angeles", "America/Toronto", "America/Mexico_City",
    "America/Bogota", "America/Sao_Paulo", "America/Argentina/Buenos_Aires", "Africa/Cairo",
    "Africa/Johannesburg", "Asia/Dubai", "Asia/Kolkata", "Asia/Shanghai", "Asia/Singapore",
    "Asia/Tokyo", "Australia/Sydney", "Pacific/Auckland",
]


REGIONS = ("Africa/", "America/", "Antarctica/", "Arctic/", "Asia/", "Atlantic/", "Australia/",
           "Europe/", "Indian/", "Pacific/")


ZONE_TABLE = Path("/usr/share/zoneinfo/zone1970.tab")


def canonical_zones() -> set[str]:
    """Today's zone names, without the old aliases (US/Eastern, Asia/Calcutta, Japan...):
    the system's zone1970.tab when there is one, else the names under a region."""
    known = zoneinfo.available_timezones()
    try:
        rows = ZONE_TABLE.read_text(encoding="utf-8").splitlines()
        listed = {row.split("\t")[2] for row in rows if row and not row.startswith("#")}
    except (OSError, IndexError):
        listed = set()
    zones = (listed & known) or {z for z in known if z.startswith(REGIONS)}
    return zones | {"UTC"}


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """The common zones first, then every other current zone in alphabetical order."""
    zones = canonical_zones()
    common = [z for z in COMMON_ZONES if z in zones]
    rest = sorted(zones - set(common))
    return [(z, z.replace("_", " ")) for z in [*common, *rest]]


def valid_zone(value: str) -> None:
    if not time_zones.valid_time_zone(value):
        raise forms.ValidationError(_("Unknown time zone %(zone)s.") % {"zone": value})


def zone_datalist(list_id: str) -> SafeString:
    """The zones offered as you type in a box that may stay empty (a player's own zone on
    the setup page, "as for the game"): a datalist, no script needed."""
    options = format_html_join("", '<option value="{}">', (
        (key,) for key, _label in time_zone_choices()))
    return format_html('<datalist id="{}">{}</datalist>', list_id, options)


# The zone a form holds until someone chooses: the page's script (static/games/zone.js)
# preselects the browser's own zone (Intl.DateTimeFormat) in its place and says so.
UNCHOSEN_ZONE = "UTC"


class ZoneSelect(forms.Widget):
    """The time zones as a list to pick from (the common ones first), not a box to type
    in. A zone the list lacks but the server knows (an old alias a seat kept) is offered
    too, so that saving another setting never changes it. While the form holds UTC, the
    default nobody chose, the select carries `data-zone-guess` and the browser's zone is
    preselected by zone.js (no inline script: the Content-Security-Policy forbids it)."""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None,
               renderer: BaseRenderer | None = None) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        chosen = str(value or UNCHOSEN_ZONE)
        if chosen == UNCHOSEN_ZONE:
            final["data-zone-guess"] = str(_("Preselected from your browser: %(zone)s."))
        choices = time_zone_choices()
        if chosen not in dict(choices):
            choices = [(chosen, chosen.replace("_", " ")), *choices]
        options = _options_html(tuple(choices))
        selected = format_html('value="{}">', chosen)
        options = options.replace(selected, selected[:-1] + " selected>", 1)
        attributes = format_html_join(
            "", ' {}="{}"', ((k, k if v is True else v) for k, v in final.items()
                             if v is not False and v is not None))
        return format_html('<select name="{}"{}>{}</select>', name, attributes,
                           mark_safe(options))  # noqa: S308  (built by format_html_join)


def zone_field(label: Any, **kwargs: Any) -> forms.CharField:
    return forms.CharField(label=label, max_length=64, validators=[valid_zone],
                           widget=ZoneSelect, **kwargs)


@lru_cache(maxsize=16)
def _options_html(choices: tuple[tuple[str, str], ...]) -> str:
    return format_html_join("", '<option value="{}">{}</option>', choices)


class LongSelect(forms.Select):
    """A select for long lists (time zones): its options are rendered once and cached.
    forms.Select renders a template per option, tens of milliseconds for 600 zones."""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None,
               renderer: BaseRenderer | None = None) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        options = _options_html(tuple((str(key), str(label)) for key, label in self.choices))
        if value is not None:
            chosen = format_html('value="{}">', value)
            options = options.replace(chosen, chosen[:-1] + " selected>", 1)
        attributes = format_html_join(
            "", ' {}="{}"', ((k, k if v is True else v) for k, v in final.items()
                             if v is not False and v is not None))
        return format_html('<select name="{}"{}>{}</select>', name, attributes,
                           mark_safe(options))  # noqa: S308  (built by format_html_join)
