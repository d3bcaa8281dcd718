"""Dates inside sentences read as each language writes them (issue 39, item 8): Italian
"fino a domenica", "da sabato" (a date with its weekday takes no article: "fino al
domenica" was wrong), the day without a leading zero ("1º dicembre", not "01 dicembre");
Spanish "desde el 1 de noviembre", German "seit 1. November". Every catalog sentence
with a date in it is rendered with a real date in its language and checked. Every moment
names its weekday (a player with days off needs it): English and German had none."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import polib
import pytest
import time_machine
from django.conf import settings
from django.utils import translation

from games.seats.core.seat import Seat
from games.seatview.core.dates import local_time
from games.setup.services import game_setup
from tests.email_support import sent_to
from tests.support import make_game

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
    # "seit 1. November", "bis 1. November": seit dem, bis zum; but before a weekday no
    # article ("seit Dienstag, 1. Dezember", not "seit dem Dienstag").
    "de": [r"\b(seit|bis|fällig)\s+\d",
           r"\b(dem|zum)\s+(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag)\b"],
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


# Tuesday the 1st of December 2026, 14:00 in Rome, as each language writes it.
WEEKDAY_MOMENTS = {
    "en": "Tuesday 1 December 2026, 14:00 (Europe/Rome)",
    "de": "Dienstag, 1. Dezember 2026, 14:00 (Europe/Rome)",
    "it": "martedì 1º dicembre 2026 14:00 (Europe/Rome)",
    "nl": "dinsdag 1 december 2026 14:00 (Europe/Rome)",
    "es": "martes 1 de diciembre de 2026 a las 14:00 (Europe/Rome)",
}


@pytest.mark.parametrize("lang", sorted(WEEKDAY_MOMENTS))
def test_a_moment_names_its_weekday_in_every_language(lang: str) -> None:
    with translation.override(lang):
        assert local_time(datetime(2026, 12, 1, 14, tzinfo=ROME), ROME) == (
            WEEKDAY_MOMENTS[lang])


@pytest.mark.django_db
@time_machine.travel(datetime(2026, 11, 30, 14, tzinfo=ROME), tick=False)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_turn_email_names_the_deadlines_weekday(commit: Any, lang: str) -> None:
    """An English and a German player read their first turn email: the deadline, 24 hours
    on, says it is a Tuesday (it read "Dec. 1, 2026, 2 p.m." and "1. Dezember 2026")."""
    with commit():
        g = make_game(players=3, seed=1, start=False)
        Seat.objects.filter(game=g.game).update(language=lang, time_zone="Europe/Rome")
    with commit():
        game_setup.start_game(g.game.pk)
    actor = g.refresh().actor
    turn: Any = sent_to(f"p{actor}@example.com")[-1]
    assert WEEKDAY_MOMENTS[lang] in turn.body
    assert WEEKDAY_MOMENTS[lang] in turn.alternatives[0][0]
