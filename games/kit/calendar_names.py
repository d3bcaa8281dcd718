"""The names of months and weekdays as each language writes them in a date.

Dates are written by Django's `date_format` with Django's own month and weekday names,
and Django's Italian catalog capitalises them ("Giovedì 26 Novembre 2026"), which
Italian does not. The project's catalogs are read before Django's (LOCALE_PATHS), so
listing the names here puts them in ours, where each language writes them its own way
("giovedì 26 novembre 2026"). Nothing calls this module: it only marks the words.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

MONTHS = (
    gettext_noop("January"), gettext_noop("February"), gettext_noop("March"),
    gettext_noop("April"), gettext_noop("May"), gettext_noop("June"), gettext_noop("July"),
    gettext_noop("August"), gettext_noop("September"), gettext_noop("October"),
    gettext_noop("November"), gettext_noop("December"),
)
WEEKDAYS = (
    gettext_noop("Monday"), gettext_noop("Tuesday"), gettext_noop("Wednesday"),
    gettext_noop("Thursday"), gettext_noop("Friday"), gettext_noop("Saturday"),
    gettext_noop("Sunday"),
)
