"""Directions in each language's letters: Italian and Spanish write O for west (Ovest,
Oeste), German O for east (Ost), Dutch O for east and Z for south (Oost, Zuid). Every card
name, log sentence and move label of both rulesets shows the reader's letters and never an
English one the language does not use."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import engine
from games.seatview.core import compass, describe
from games.seatview.core.describe import MoveContext

# A side's letter stands alone: "Curva N-O", "+ diramazione cieca E", "Tunnel N-S / E-W".
LETTER = re.compile(r"(?<![A-Za-zÀ-ÿ])([A-Z])(?![A-Za-zÀ-ÿ])")
FOREIGN = {"it": {"W"}, "es": {"W"}, "de": {"E"}, "nl": {"E", "S"}}


def _sentences(ruleset: str) -> list[str]:
    """Every path card's name, and every log sentence and move label naming one."""
    names = {0: "Ann", 1: "Bob"}
    cards = [engine.card_json(spec) for spec in engine.rules_for(ruleset).cards.values()
             if spec is not None and spec.kind == "path"]
    lines = []
    for card in cards:
        lines.append(describe.card_name(card))
        for rotated in (False, True):
            lines.append(describe.event_sentence(
                {"type": "place", "seat": 0, "card": card["id"], "x": 1, "y": 0,
                 "rotated": rotated}, names, ruleset, 1))
        lines.append(describe.event_sentence(
            {"type": "rockfall", "seat": 1, "card": "a20", "x": 1, "y": 0,
             "removed": card["id"]}, names, ruleset, 0))
        lines.append(describe.event_sentence(
            {"type": "pass", "seat": 0, "count": 1, "card": card["id"], "name": "x"},
            names, ruleset, 0))
        placed: engine.CardView = {
            **engine.card_json(engine.rules_for(ruleset).cards[card["id"]], True),
            "rotated": True}
        lines.append(describe.move_label(
            {"type": "rockfall", "card": "a20", "x": 1, "y": 0},
            MoveContext(names=names, board={(1, 0): placed}, ruleset=ruleset)))
    return lines


@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
@pytest.mark.parametrize("language", ["it", "nl", "es", "de"])
def test_no_english_compass_letter_in_any_card_name_or_log_sentence(language: str,
                                                                    ruleset: str) -> None:
    with translation.override(language):
        lines = _sentences(ruleset)
    used = {letter for line in lines for letter in LETTER.findall(line)} & set("NESWOZ")
    assert used <= set(compass.LETTERS[language]), used
    assert not used & FOREIGN[language]
    assert set(compass.LETTERS[language]) <= used  # every side of theirs shows up somewhere


@pytest.mark.parametrize(("language", "card", "name"), [
    ("en", "p39", "Dead end E-S-W"), ("it", "p39", "Vicolo cieco E-S-O"),
    ("es", "p39", "Callejón sin salida E-S-O"), ("de", "p22", "T-Kreuzung O-S-W"),
    ("nl", "p39", "Doodlopende gang O-Z-W"), ("it", "p13", "Curva N-O"),
])
def test_the_issues_card_names_read_in_the_readers_letters(language: str, card: str,
                                                           name: str) -> None:
    with translation.override(language):
        assert describe.card_name(engine.card_json(engine.rules_for("base").cards[card])) \
            == name
