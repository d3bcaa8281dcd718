"""A `%` in a template's translated text is looked up doubled (`95%% interval`): Django
escapes it before asking the catalog. Every such text must be in the catalogs as Django
asks for it, or the reader gets English inside a page marked as their language."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATE = re.compile(r'{% translate "([^"]*%[^"]*)" %}')
BLOCK = re.compile(r"{% blocktranslate[^%]*%}(.*?){% endblocktranslate %}", re.S)
VARIABLE = re.compile(r"{{ *(\w+) *}}")


def looked_up() -> set[str]:
    """The msgids Django asks for, for every template text with a literal `%`."""
    wanted = set()
    for path in TEMPLATES.rglob("*"):
        if path.suffix not in (".html", ".txt"):
            continue
        text = path.read_text(encoding="utf-8")
        wanted |= {found.replace("%", "%%") for found in TRANSLATE.findall(text)}
        for block in BLOCK.findall(text):
            if "%" in block and "{% plural %}" not in block:
                wanted.add(VARIABLE.sub(r"%(\1)s", block.replace("%", "%%")))
    return wanted


def test_some_template_text_has_a_percent() -> None:
    assert "95%% interval" in looked_up()


@pytest.mark.parametrize("lang", ["it", "nl", "es", "de"])
def test_every_template_text_with_a_percent_is_found(lang: str) -> None:
    catalog = {entry.msgid
               for entry in polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))}
    assert sorted(looked_up() - catalog) == []
