"""The first lesson's script (games.learn.core.first_round) on the engine alone: its deal
is the one the words tell (the learner a gold-digger, Bert the saboteur, the gold under
the middle goal), every scripted move is legal where it stands (the bots' and the
learner's own), each step's move is made by the learner, of the kind the step teaches,
with a card already in the learner's hand, and the last one finds the gold."""

from __future__ import annotations

import pytest

from games import engine
from games.engine.rules.core import DIGGER, SABOTEUR
from games.learn.core import first_round as lesson
from games.moves.core import script

KINDS = {1: ("place", None), 2: ("action", "repair"), 3: ("map", None),
         4: ("rockfall", None), 5: ("place", None)}


def test_every_scripted_move_is_legal_where_it_stands_and_the_words_are_true() -> None:
    state = engine.new_game(1 + len(lesson.BOTS), lesson.SEED, lesson.RULESET)
    assert state.roles[lesson.LEARNER] == DIGGER and state.roles[lesson.SABOTEUR] == SABOTEUR
    assert state.goal_kinds[1] == "gold"  # the middle goal, as the map step says
    steps = {step.version: number for number, step in enumerate(lesson.STEPS, start=1)}
    cards = engine.rules_for(lesson.RULESET).cards
    for version, move in enumerate(lesson.MOVES):
        legal = engine.legal_moves(state)
        assert move in legal, (version, move)  # canonical: as the engine lists it
        assert script.forced_move(lesson.MOVES, state, version) == move
        number = steps.get(version)
        if number is not None:  # the learner's step, the kind it teaches
            assert state.actor == lesson.LEARNER
            kind, action = KINDS[number]
            assert move["type"] == kind and move["card"] in state.hands[lesson.LEARNER]
            assert action is None or cards[move["card"]].action == action
        else:
            assert state.actor != lesson.LEARNER
        state = engine.apply(state, {**move, "seat": state.actor})
        if version == 1:  # the broken lantern, in front of the learner
            assert state.in_front[lesson.LEARNER] == ["a06"]
        if version == 7:  # Bert's dead end at (5, 0), which the rockfall clears
            assert cards[state.board[(5, 0)][0]].dead_end
    end = next(e for e in state.log if e["type"] == "round_end")
    assert (end["reason"], end["finder"], end["winners"]) == ("gold", 0, "gold-diggers")
    assert state.phase == "gold" and state.picker == lesson.LEARNER
    assert script.scripted(lesson.MOVES, len(lesson.MOVES)) is None  # a normal game on


def test_a_seat_must_make_the_scripted_move() -> None:
    first = lesson.MOVES[0]
    script.check_seat_move(lesson.MOVES, 0, {**first, "seat": 0})
    script.check_seat_move(lesson.MOVES, 0, {k: v for k, v in first.items() if k != "rotated"})
    script.check_seat_move(lesson.MOVES, 3, {"type": "action", "card": "a16", "target": 0})
    for other in ({**first, "x": 0, "y": 1}, {**first, "rotated": True},
                  {"type": "pass", "card": "p05"}):
        with pytest.raises(engine.IllegalMove) as refused:
            script.check_seat_move(lesson.MOVES, 0, other)
        assert refused.value.code == "off_script"
    script.check_seat_move(lesson.MOVES, len(lesson.MOVES), {"type": "pass", "card": "x"})
    script.check_seat_move([], 0, {"type": "pass", "card": "x"})
