"""The strong level: legal moves from sampled worlds that agree with the seat's view,
the same move for the same inputs whatever the other seats hide, and a belief over
roles that is certain where the seat knows."""

from __future__ import annotations

import copy
import importlib
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import choose_move
from games.bots.strong import believe
from games.bots.strong.belief import table
from games.bots.strong.worlds import sample_world
from games.engine import LogEvent, SeatView, State, apply, legal_moves, new_game, rules_for, view

from .play import random_position
from .test_inputs import shuffled_secrets

RULESETS = ["base", "saboteur2"]
SEARCH = importlib.import_module("games.bots.strong.search")
LOOKAHEAD = importlib.import_module("games.bots.strong.lookahead")
STRONG = importlib.import_module("games.bots.strong")
SAME = ("board", "goals", "hand", "role", "deck_size", "round", "actor", "seats")
# "gated" plays one of the team algorithm's candidates, whatever its gate says (its gate:
# tests/bots/test_gated.py): its moves are as legal as the team algorithm's.
SEARCHED = [a for a in STRONG.ALGORITHMS if a != "gated"]


@pytest.fixture(params=SEARCHED)
def small_search(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer worlds and steps: legality does not depend on how long the bot thinks;
    each of the strong level's algorithms (the rollouts and the joint look-ahead)."""
    for module in (SEARCH, LOOKAHEAD):
        monkeypatch.setattr(module, "WORLDS", 1)
        monkeypatch.setattr(module, "STEPS", 8)
    monkeypatch.setattr(STRONG, "ALGORITHM", request.param)


def positions(ruleset: str, games: int, seed: int = 0) -> Iterator[State]:
    """Positions of seeded games (normal bots and random movers), every seat count."""
    rules = rules_for(ruleset)
    for game in range(games):
        rng = random.Random(seed + game)
        seats = rules.min_seats + game % (rules.max_seats - rules.min_seats + 1)
        state = new_game(seats, seed + game, ruleset)
        turn = 0
        while not state.finished and state.round <= 2:
            yield state
            moves = legal_moves(state)
            if rng.random() < 0.3:
                move = rng.choice(moves)
            else:
                move = choose_move(view(state, state.actor), moves, turn)
            state = apply(state, move)
            turn += 1


def public(seen: Mapping[str, Any]) -> dict[str, Any]:
    players = [{k: v for k, v in p.items() if k != "gold"} for p in seen["players"]]
    return {**{k: seen[k] for k in SAME}, "players": players}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_sampled_worlds_agree_with_the_view(ruleset: str) -> None:
    checked = 0
    rng = random.Random(1)
    for state in positions(ruleset, games=8):
        if state.phase != "play" or rng.random() > 0.3:
            continue
        seat = state.actor
        seen = view(state, seat)
        world = sample_world(seen, believe(seen), rng)
        assert public(view(world, seat)) == public(seen)
        assert legal_moves(world) == legal_moves(state)
        checked += 1
    assert checked > 100


@pytest.mark.slow  # the strong bot over many positions
@pytest.mark.usefixtures("small_search")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_strong_moves_are_legal_over_many_positions(ruleset: str) -> None:
    """Every fourth position of seeded games at every seat count; random positions are
    test_any_position_gets_a_legal_strong_move's (hypothesis)."""
    asked = 0
    for number, state in enumerate(positions(ruleset, games=5, seed=50)):
        if number % 4:
            continue
        moves = legal_moves(state)
        move = choose_move(view(state, state.actor), moves, number, level="strong")
        assert any(move is m for m in moves), move  # the very element
        apply(state, move)
        asked += 1
    assert asked > 75


@pytest.mark.slow  # the strong bot's full search budget
@pytest.mark.parametrize("algorithm", SEARCHED)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_strong_moves_at_full_budget_are_legal(ruleset: str, algorithm: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(STRONG, "ALGORITHM", algorithm)
    for number, state in enumerate(positions(ruleset, games=1, seed=90)):
        if number % 8 or state.phase != "play":
            continue
        moves = legal_moves(state)
        move = choose_move(view(state, state.actor), moves, number, level="strong")
        assert any(move is m for m in moves)


@pytest.mark.slow  # the strong bot over many positions
@pytest.mark.usefixtures("small_search")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_inputs_same_strong_move_whatever_the_others_hide(ruleset: str) -> None:
    rng = random.Random(5)
    changed = 0
    for number, state in enumerate(positions(ruleset, games=2, seed=200)):
        if number % 4 or state.phase != "play":
            continue
        seat = state.actor
        assert seat is not None  # in play, someone is to act
        seen, moves = view(state, seat), legal_moves(state)
        before = json.dumps([seen, moves], sort_keys=True)
        first = choose_move(seen, moves, number, level="strong")
        assert json.dumps([seen, moves], sort_keys=True) == before  # the view is left alone
        assert choose_move(copy.deepcopy(seen), copy.deepcopy(moves), number,
                           level="strong") == first
        other = shuffled_secrets(state, seat, rng)
        changed += other.hands != state.hands or other.roles != state.roles
        assert choose_move(view(other, seat), legal_moves(other), number,
                           level="strong") == first
    assert changed > 5


def test_a_door_makes_its_placer_s_team_certain() -> None:
    found = 0
    for state in positions("saboteur2", games=12, seed=300):
        event = state.log[-1]
        if event.get("type") != "place" or not any(
                s.door for s in rules_for("saboteur2").cards[event["card"]].segments):
            continue
        placer = event["seat"]
        for seat in range(state.seats):
            if seat == placer or state.phase != "play":
                continue
            belief = believe(view(state, seat))
            assert placer in belief.certain
            assert belief.p(placer, state.roles[placer]) == 1.0
        found += 1
    assert found >= 3


def test_an_inspection_makes_the_role_certain_for_the_inspector_only() -> None:
    found = 0
    for state in positions("saboteur2", games=8, seed=400):  # 8 or so inspections
        event = state.log[-1]
        if event.get("type") != "inspection" or state.phase != "play":
            continue
        inspector, target = event["seat"], event["target"]
        belief = believe(view(state, inspector))
        assert belief.p(target, state.roles[target]) == 1.0 and target in belief.certain
        for other in range(state.seats):
            if other in (inspector, target):
                continue
            seen = view(state, other)  # the event without the role: it tells nothing
            assert seen["log"] is not None  # asked for with its log
            before: SeatView = {**seen, "log": seen["log"][:-1]}
            assert believe(seen).probs[target] == believe(before).probs[target]
        found += 1
    assert found >= 4


def test_dead_ends_make_a_seat_look_like_a_saboteur() -> None:
    state = new_game(5, 7)
    seen = view(state, 0)
    before = believe(seen).p(2, "saboteur")
    assert seen["log"] is not None  # asked for with its log
    dead_ends: list[LogEvent] = [{"type": "place", "seat": 2, "card": card, "x": x, "y": 1,
                                  "rotated": False} for card, x in (("p38", 3), ("p39", 5))]
    seen["log"] = [*seen["log"], *dead_ends]
    after = believe(seen)
    assert after.p(2, "saboteur") > max(0.8, before) and 2 not in after.certain
    assert table()["base"]["games"] > 0  # measured, not hand-set


@pytest.mark.usefixtures("small_search")
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32),
       seats=st.integers(2, 12), steps=st.integers(0, 120), bot_seed=st.integers(0, 2**63))
def test_any_position_gets_a_legal_strong_move(ruleset: str, seed: int, seats: int,
                                               steps: int, bot_seed: int) -> None:
    state = random_position(ruleset, seed, seats, steps)
    if state is None:
        return
    moves = legal_moves(state)
    move = choose_move(view(state, state.actor), moves, bot_seed, level="strong")
    assert move in moves
    apply(state, move)
