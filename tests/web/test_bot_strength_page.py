"""The rules pages say how strong the bots are: the duplicate table as measured, in the
reader's language, each ruleset its own rows."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from games.site import bot_strength

HEADINGS = {"en": "How strong are the bots", "it": "Quanto sono forti i bot",
            "nl": "Hoe sterk zijn de bots", "es": "Qué tan fuertes son los bots",
            "de": "Wie stark die Bots sind"}

SIDES = {"gold-diggers": "the gold-diggers", "saboteurs": "the saboteurs",
         "blue": "the blue gold-diggers", "green": "the green gold-diggers"}


def section(client: Client, ruleset: str, lang: str) -> str:
    body = html.unescape(client.get(f"/rules/{ruleset}/?lang={lang}").content.decode())
    return body.split('<section id="bots">', 1)[1].split("</section>", 1)[0]


@pytest.mark.parametrize("lang", list(HEADINGS))
def test_the_rules_page_says_how_strong_the_bots_are(client: Client, lang: str) -> None:
    part = section(client, "base", lang)
    assert HEADINGS[lang] in part and bot_strength.MEASURED_ON in part


@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_each_measured_row_is_shown_with_its_interval_and_deals(
        client: Client, ruleset: str) -> None:
    part = section(client, ruleset, "en")
    rows = bot_strength.MEASURED[ruleset]
    assert rows, "no figures copied in"
    assert part.count("<tr>") == len(rows) + 1  # and the heading's
    for players, side, deals, normal, strong, gain, low, high in rows:
        assert (f"<tr><td>{players}</td><td>{SIDES[side]}</td><td>{deals}</td>"
                f"<td>{normal:.0%}</td><td>{strong:.0%}</td><td>{gain:+.0f}</td>"
                f"<td>{low:+.0f} … {high:+.0f}</td></tr>") in part
    assert "the blue gold-diggers" not in section(client, "base", "en")


@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
@pytest.mark.parametrize(("lang", "interval"), [("it", "Intervallo al 95%"),
                                                ("de", "95-%-Intervall"),
                                                ("es", "Intervalo del 95%"),
                                                ("nl", "95%-interval")])
def test_the_bot_paragraph_and_its_interval_header_are_translated(
        client: Client, ruleset: str, lang: str, interval: str) -> None:
    """A `%` in a template's text is looked up as `%%`: the catalogs must hold it so, or
    the reader gets the English paragraph inside a page marked as their language."""
    part = section(client, ruleset, lang)
    assert "Measured in duplicate play" not in part and "95% interval" not in part
    assert interval in part and "%%" not in part
    assert bot_strength.MEASURED_ON in part
