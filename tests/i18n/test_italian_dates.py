"""Dates read as each language writes them: Italian month and weekday names in lower case
("giovedì 26 novembre 2026"), where Django's own catalog capitalises them."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import translation

from games.seatview.core.dates import local_time

ROME = ZoneInfo("Europe/Rome")
MONTHS = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
          "settembre", "ottobre", "novembre", "dicembre"]
WEEKDAYS = ["lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"]


def test_italian_months_and_weekdays_are_written_in_lower_case() -> None:
    with translation.override("it"):
        assert local_time(datetime(2026, 11, 26, 17, 5, tzinfo=ZoneInfo("UTC")), ROME) == (
            "giovedì 26 novembre 2026 18:05 (Europe/Rome)")
        for month, name in enumerate(MONTHS, 1):
            day = datetime(2026, month, 1 + (month % 7), 12, tzinfo=ROME)
            shown = local_time(day, ROME)
            assert f" {name} 2026 " in shown, shown
            assert shown.split()[0] == WEEKDAYS[day.weekday()], shown


def test_other_languages_keep_their_own_month_names() -> None:
    moment = datetime(2026, 11, 26, 17, 5, tzinfo=ZoneInfo("UTC"))
    expected = {"nl": "26 november 2026", "es": "26 de noviembre de 2026",
                "de": "26. November 2026"}
    for language, date in expected.items():
        with translation.override(language):
            assert date in local_time(moment, ROME)
