"""Remembered card names and cell words (games.seatview.core.words.card_name,
games.seatview.core.cell_words.cell_words) say exactly what the plain functions say, for
every card and cell of seeded games, every seat, language and ruleset; another language
or another card is never answered from memory."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games import engine
from games.seatview.core import cell_words, words
from tests.support import choose

LANGUAGES = ("en", "it", "nl", "es", "de")


def views_midway(ruleset: str, seats: int, seed: int) -> list[engine.SeatView]:
    """Each seat's view (and a spectator's) every 15 moves of a seeded game."""
    state = engine.new_game(seats, seed=seed, ruleset=ruleset)
    rng = random.Random(seed)
    views: list[engine.SeatView] = []
    while not state.finished:
        if len(state.log) % 15 == 0:
            views.extend(engine.view(state, seat) for seat in [*range(seats), None])
        state = engine.apply(state, choose(engine.legal_moves(state), rng, 0.35))
    return views


@pytest.mark.parametrize(("ruleset", "seats", "seed"), [("base", 4, 3), ("saboteur2", 5, 7)])
def test_every_name_and_cell_is_the_plain_one_in_every_language(ruleset: str, seats: int,
                                                                seed: int) -> None:
    views = views_midway(ruleset, seats, seed)
    for language in LANGUAGES:
        with translation.override(language):
            for view in views:
                cards = [*view["hand"], *cell_words.placed_cards(view).values(),
                         *(c for p in view["players"] for c in p["in_front"])]
                for card in cards:
                    for _twice in range(2):  # named, then remembered
                        assert words.card_name(card) == words.plain_card_name(card)
                joined = cell_words.joined_cells(view)
                for (x, y), card in cell_words.placed_cards(view).items():
                    for _twice in range(2):
                        assert cell_words.cell_words(x, y, card, joined=(x, y) in joined) == \
                            cell_words.plain_cell_words(x, y, card, joined=(x, y) in joined)
                for x, y in cell_words.frontier(view):
                    assert cell_words.cell_words(x, y, None, open_=True) == \
                        cell_words.plain_cell_words(x, y, None, open_=True)


def test_another_language_or_card_is_never_answered_from_memory() -> None:
    card = {"id": "p1", "kind": "path", "segments": [["N", "S"]], "exits": ["N", "S"]}
    turned = {**card, "segments": [["E", "W"]], "exits": ["E", "W"]}
    english = words.card_name(card)
    assert words.card_name(turned) == words.plain_card_name(turned) != english
    said = cell_words.cell_words(0, 1, card)
    assert cell_words.cell_words(0, 1, card, joined=True) != said
    with translation.override("it"):
        assert words.card_name(card) == words.plain_card_name(card) != english
        assert cell_words.cell_words(0, 1, card) == cell_words.plain_cell_words(0, 1, card) \
            != said
