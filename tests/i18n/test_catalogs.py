"""The translation catalogs (locale/<lang>/LC_MESSAGES): complete, no fuzzy entries, every
placeholder kept, and the committed compiled catalogs (.mo, what Django reads on a
machine without GNU gettext) exactly what the sources compile to."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import polib
import pytest
from django.conf import settings

LANGS = ["it", "nl", "es", "de"]
LOCALE = Path(settings.BASE_DIR) / "locale"
# %(name)s, %s, %d, {name}, {{ x }} and HTML tags must survive translation unchanged.
PLACEHOLDER = re.compile(r"%\([a-z_|]+\)[sd]|%[sd]|\{\{?[^{}]*\}?\}|</?[a-z][^>]*>")


def catalog(lang: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    po = catalog(lang)
    assert len(po) > 800
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
    assert po.metadata["Language"] == lang
    assert po.metadata["Plural-Forms"].startswith("nplurals=2;")


@pytest.mark.parametrize("lang", LANGS)
def test_every_placeholder_is_kept(lang: str) -> None:
    wrong = []
    for entry in catalog(lang):
        if entry.msgid_plural:
            wanted = placeholders(entry.msgid_plural)
            forms = list(entry.msgstr_plural.values())
        else:
            wanted, forms = placeholders(entry.msgid), [entry.msgstr]
        # A singular form may name the count in words ("one card") instead of %(n)s.
        for form in forms:
            got = placeholders(form)
            if got != wanted and [p for p in wanted if p not in ("%(n)s", "%(count)s")] != got:
                wrong.append((entry.msgid, form))
    assert wrong == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalogs_match_their_sources(lang: str) -> None:
    committed = (LOCALE / lang / "LC_MESSAGES" / "django.mo").read_bytes()
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "django.mo"
        catalog(lang).save_as_mofile(str(fresh))
        assert fresh.read_bytes() == committed, (
            f"locale/{lang}: run `python3 run.py catalogs` to recompile the .mo file")
