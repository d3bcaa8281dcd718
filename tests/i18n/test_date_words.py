"""Dates inside sentences read as each language writes them (issue 39, item 8): Italian
"fino a domenica", "da sabato" (a date with its weekday takes no article: "fino al
domenica" was wrong), the day without a leading zero ("1º dicembre", not "01 dicembre");
Spanish "desde el 1 de noviembre", German "seit dem 1. November". Every catalog sentence
with a date in it is rendered with a real date in its language and checked."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import polib
import pytest
from django.conf import settings
from django.utils import translation

from games.present.facts import local_time

LOCALE = settings.BASE_DIR / "locale"
ROME = ZoneInfo("Europe/Rome")
# The placeholders that stand for a moment written by local_time (pages, emails, admin).
DATES = ("since", "until", "at", "deadline", "vacation_until")
# Sunday the 1st and Saturday the 5th: a weekday name and a single-digit day.
MOMENTS = (datetime(2026, 11, 1, 9, 30, tzinfo=ROME), datetime(2026, 12, 5, 18, tzinfo=ROME))
WEEKDAYS_IT = "lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica"
MONTHS_IT = ("gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|"
             "novembre|dicembre")
WRONG = {
    # An article before a weekday ("al domenica", "dal sabato", "il martedì" = every Tuesday).
    "it": [rf"\b(il|al|dal|del|nel|sul|all'|dall')\s*({WEEKDAYS_IT})\b",
           rf"\b0\d\s+({MONTHS_IT})\b"],
    # "desde 1 de noviembre": a day of the month takes its article.
    "es": [r"\b(desde|hasta)\s+\d"],
    # "seit 1. November", "bis 1. November": seit dem, bis zum.
    "de": [r"\b(seit|bis|fällig)\s+\d"],
    "nl": [r"\b(de|het)\s+\d+\s+[a-z]+\s+\d{4}"],
}


def dated_entries(lang: str) -> list[tuple[str, str]]:
    """(msgid, msgstr form) of every entry whose sentence holds a date."""
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))
    found = []
    for entry in po:
        names = set(re.findall(r"%\((\w+)\)s", entry.msgid))
        if not names & set(DATES):
            continue
        forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        found += [(entry.msgid, form) for form in forms]
    return found


@pytest.mark.parametrize("lang", ["it", "es", "de", "nl"])
def test_every_sentence_with_a_date_takes_the_right_preposition(lang: str) -> None:
    entries = dated_entries(lang)
    assert len(entries) >= 8
    wrong = []
    with translation.override(lang):
        for moment in MOMENTS:
            shown = local_time(moment, ROME)
            for msgid, form in entries:
                values = {name: shown if name in DATES else "3"
                          for name in re.findall(r"%\((\w+)\)s", form)}
                sentence = form % values
                if any(re.search(pattern, sentence) for pattern in WRONG[lang]):
                    wrong.append((msgid, sentence))
    assert wrong == []


def test_italian_days_have_no_leading_zero_and_the_first_is_an_ordinal() -> None:
    with translation.override("it"):
        assert local_time(datetime(2026, 12, 1, 10, tzinfo=ROME), ROME) == (
            "martedì 1º dicembre 2026 10:00 (Europe/Rome)")
        assert local_time(datetime(2026, 12, 5, 9, 5, tzinfo=ROME), ROME) == (
            "sabato 5 dicembre 2026 09:05 (Europe/Rome)")
        assert local_time(datetime(2026, 12, 11, 9, tzinfo=ROME), ROME).startswith(
            "venerdì 11 dicembre")
