"""Remembered log sentences (games.seatview.core.remembered_sentences) say exactly what
describe.event_sentence says, for every seat, language and ruleset, and a change of names
(a seat changing hands, a forgotten player) or of language is never answered from
memory."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games import engine
from games.seatview.core import describe, remembered_sentences
from tests.support import choose

LANGUAGES = ("en", "it", "nl", "es", "de")


def views_of_a_game(ruleset: str, seats: int, seed: int) -> list[engine.SeatView]:
    """Each seat's view (and a spectator's) at the end of a seeded game."""
    state = engine.new_game(seats, seed=seed, ruleset=ruleset)
    rng = random.Random(seed)
    while not state.finished:
        state = engine.apply(state, choose(engine.legal_moves(state), rng, 0.35))
    return [engine.view(state, seat) for seat in [*range(seats), None]]


@pytest.mark.parametrize(("ruleset", "seats", "seed"), [("base", 4, 3), ("saboteur2", 5, 7)])
def test_every_sentence_is_the_plain_one_in_every_language(ruleset: str, seats: int,
                                                           seed: int) -> None:
    names = {n: f"Player{n}" for n in range(seats)}
    remembered_sentences.clear()
    for language in LANGUAGES:
        with translation.override(language):
            for view in views_of_a_game(ruleset, seats, seed):
                for event in view["log"] or []:
                    plain = describe.event_sentence(event, names, ruleset, view["seat"])
                    for _twice in range(2):  # described, then remembered
                        assert remembered_sentences.event_sentence(
                            event, names, ruleset, view["seat"]) == plain


def test_new_names_and_another_language_are_never_answered_from_memory() -> None:
    view = views_of_a_game("base", 3, 5)[0]
    event = next(e for e in view["log"] or [] if e.get("type") == "place")
    before = {0: "Ann", 1: "Bert", 2: "Cleo"}
    said = remembered_sentences.event_sentence(event, before, "base", 0)
    renamed = {**before, event["seat"]: "a former player"}
    again = remembered_sentences.event_sentence(event, renamed, "base", 0)
    assert again == describe.event_sentence(event, renamed, "base", 0) != said
    with translation.override("de"):
        german = remembered_sentences.event_sentence(event, before, "base", 0)
        assert german == describe.event_sentence(event, before, "base", 0) != said
