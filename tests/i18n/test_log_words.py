"""Log lines as a native reads them: a card named in a sentence gets its article and
quotes (de, es, nl), Italian says who begins without a gendered "per primo", and the
start card is the rulebook's "Partenza"."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import engine
from games.engine.types import LogEvent
from games.seatview.core import describe

NAMES = {0: "Dieter", 1: "Elena"}


def crossroads_id() -> str:
    return next(card_id for card_id, spec in engine.rules_for("base").cards.items()
                if describe.card_name(engine.card_json(spec)) == "Crossroads")


@pytest.mark.parametrize(("lang", "sentence"), [
    ("de", "Dieter hat die Karte „Kreuzung“ auf (-6, 0) gelegt."),
    ("es", "Dieter colocó la carta «Cruce» en (-6, 0)."),
    ("nl", "Dieter legde de kaart “Kruispunt” op (-6, 0).")])
def test_a_placed_card_is_named_with_its_article(lang: str, sentence: str) -> None:
    event: LogEvent = {"type": "place", "seat": 0, "card": crossroads_id(),
                       "name": "Crossroads", "x": -6, "y": 0}
    with translation.override(lang):
        assert describe.event_sentence(event, NAMES, "base") == sentence


def test_italian_says_who_begins_for_anyone_and_names_the_start_card() -> None:
    with translation.override("it"):
        start = describe.event_sentence({"type": "round_start", "round": 3, "first": 1},
                                        NAMES, "base")
        assert start == "Inizia il round 3; comincia Elena."
        assert describe.card_name({"kind": "start"}) == "Partenza"
