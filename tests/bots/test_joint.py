"""The strong level's exact joint belief (games/bots/strong/joint.py) and what its
look-ahead reads from the table (signals.py): the posterior sums to 1, never rules the
truth out, and puts no mass on what the seat's log and view rule out."""

from __future__ import annotations

import importlib
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import choose_move
from games.bots.strong import believe
from games.bots.strong.belief import catalogue_door, dwarf_pool
from games.bots.strong.joint import Joint, joint_belief
from games.bots.strong.signals import exposure, public_saboteur, revealed
from games.engine import LogEvent, SeatView, State, apply, legal_moves, new_game, rules_for, view

from .play import random_position
from .test_strong import positions

LOOKAHEAD = importlib.import_module("games.bots.strong.lookahead")


def check_joint(state: State, seat: int) -> Joint | None:
    """The seat's joint belief, checked against the view and the truth."""
    seen = view(state, seat)
    joint = joint_belief(seen)
    log = list(seen["log"] or [])
    start = max((i for i, e in enumerate(log) if e.get("type") == "round_start"), default=-1)
    if joint is None:
        return None
    assert math.isclose(sum(joint.weights), 1.0, abs_tol=1e-9)
    assert all(w >= 0 for w in joint.weights)
    pool = Counter(dwarf_pool(state.ruleset, state.seats))
    events = log[start + 1:]
    swapped = {int(str(e["target"])) for e in events if e.get("type") == "swap_hats"}
    # What the seat knows for sure and still holds (a swap deals the target a new card).
    doors = {int(str(e["seat"])): f"{catalogue_door(e)}-digger" for i, e in enumerate(events)
             if e.get("type") == "place" and catalogue_door(e)
             and not swapped_after(events, i, int(str(e["seat"])))}
    inspected = {int(str(e["target"])): str(e["role"]) for i, e in enumerate(events)
                 if e.get("type") == "inspection" and e.get("seat") == seat
                 and not swapped_after(events, i, int(str(e["target"])))}
    stone = {int(g["goal"]) for g in seen["goals"] if g["status"] == "stone"}
    for (roles, gold), weight in zip(joint.hyps, joint.weights, strict=True):
        named = [joint.roles[r] for r in roles]
        assert swapped or not Counter(named) - pool  # a deal the dwarf cards allow
        if weight == 0:
            continue
        assert named[seat] == seen["role"]
        assert all(named[s] == r for s, r in doors.items())
        assert all(named[s] == r for s, r in inspected.items())
        assert gold not in stone
    truth = [str(r) for r in state.roles]
    gold_at = state.goal_kinds.index("gold")
    if joint.exact:
        assert joint.mass(truth, gold_at) > 0  # the log never rules the truth out
    elif not swapped:
        assert joint.estimate(truth, gold_at) > 0
    return joint


def swapped_after(events: list[LogEvent], index: int, seat: int) -> bool:
    return any(e.get("type") == "swap_hats" and e.get("target") == seat
               for e in events[index + 1:])


@settings(max_examples=40, deadline=None)
@given(ruleset=st.sampled_from(["base", "saboteur2"]), seed=st.integers(0, 2**32),
       seats=st.integers(2, 10), steps=st.integers(0, 150))
def test_the_joint_posterior_sums_to_one_and_rules_out_what_the_log_does(
        ruleset: str, seed: int, seats: int, steps: int) -> None:
    state = random_position(ruleset, seed, seats, steps)
    if state is None or state.phase != "play":
        return
    check_joint(state, seed % state.seats)


@pytest.mark.slow  # whole bot games
@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_the_joint_posterior_holds_over_bot_games(ruleset: str) -> None:
    """Bots' games have doors, maps and inspections random movers rarely play."""
    checked = 0
    for number, state in enumerate(positions(ruleset, games=4, seed=700)):
        if number % 5 or state.phase != "play":
            continue
        checked += check_joint(state, number % state.seats) is not None
    assert checked > 20


def test_doors_and_inspections_make_the_joint_certain() -> None:
    doors = inspections = 0
    # 2 to 7 seats: exact tables and, at 7, a sampled one (16 games, to 12 seats, cost 6 s).
    for state in positions("saboteur2", games=6, seed=300):
        event = state.log[-1]
        if state.phase != "play" or event.get("type") not in ("place", "inspection"):
            continue
        if event["type"] == "place" and catalogue_door(event):
            seats = [s for s in range(state.seats) if s != event["seat"]]
            doors += 1
        elif event["type"] == "inspection":
            seats = [event["seat"]]
            inspections += 1
        else:
            continue
        known = int(event.get("target", event["seat"]) or 0)
        for seat in seats:
            joint = joint_belief(view(state, seat))
            if joint is not None:
                assert joint.marginal(known)[state.roles[known]] == pytest.approx(1.0)
                assert known in joint.belief().certain
    assert doors >= 3 and inspections >= 2


def test_exact_for_every_base_table_and_small_saboteur2_tables() -> None:
    for seats in range(3, 11):
        assert joint_belief(view(new_game(seats, 1), 0)) is not None
    assert joint_belief(view(new_game(5, 1, "saboteur2"), 0)) is not None
    big = joint_belief(view(new_game(12, 1, "saboteur2"), 0))
    assert big is not None and not big.exact  # sampled


def test_the_joint_prior_counts_the_deals() -> None:
    """Base, 5 seats: 2 saboteurs among 6 cards; a digger's 4 others hold 0, 1 or 2."""
    joint = joint_belief(view(new_game(5, 2), next(
        s for s in range(5) if new_game(5, 2).roles[s] == "gold-digger")))
    assert joint is not None
    assert joint.marginal((joint.me + 1) % 5)["saboteur"] == pytest.approx(2 / 5)
    assert joint.gold() == pytest.approx([1 / 3] * 3)


def test_dead_ends_raise_suspicion_in_the_joint_and_in_public() -> None:
    state = new_game(5, 7)
    seen = view(state, 0)
    before = joint_belief(seen)
    dead_ends: list[LogEvent] = [{"type": "place", "seat": 2, "card": card, "x": x, "y": 1,
                                  "rotated": False} for card, x in (("p38", 3), ("p39", 5))]
    assert seen["log"] is not None
    later: SeatView = {**seen, "log": [*seen["log"], *dead_ends]}
    after = joint_belief(later)
    assert before is not None and after is not None
    assert after.marginal(2)["saboteur"] > max(0.5, before.marginal(2)["saboteur"])
    by_table = joint_belief(later, learned=False)
    assert by_table is not None and by_table.marginal(2)["saboteur"] > 0.7
    assert public_saboteur(later, 2) > public_saboteur(seen, 2)
    assert believe(later).p(2, "saboteur") > 0.5  # the factorised belief agrees


def test_what_a_move_tells_the_table() -> None:
    state = new_game(4, 3)
    seen = view(state, state.actor)
    gold = [1 / 3] * 3
    # A map on one of three equally likely goals: log2(3) bits before, 2/3 x 1 bit after.
    bits = revealed(seen, {"type": "map", "card": "x", "goal": 0}, gold, {})
    assert bits == pytest.approx(math.log2(3) - 2 / 3)
    assert revealed(seen, {"type": "pass", "cards": []}, gold, {}) == 0.0
    dead = next(c for c in rules_for("base").cards.values()
                if c.kind == "path" and any(s.exits for s in c.segments)
                and c.id in ("p38", "p39"))
    seat = int(state.actor or 0)
    hand = {**seen, "hand": [*seen["hand"], {"id": dead.id}]}
    before = public_saboteur(seen, seat)
    move = {"type": "place", "card": dead.id, "x": 5, "y": 1, "rotated": False}
    assert exposure(hand, move, seat, before) > 0  # type: ignore[arg-type]


def own_moves(seat: int, other: int) -> list[LogEvent]:
    """A lap of moves by `seat`: a dead end near the goals, a rockfall, a map, a pass,
    broken and mended tools of `other`."""
    return [{"type": "place", "seat": seat, "card": "p38", "x": 6, "y": 1, "rotated": False},
            {"type": "rockfall", "seat": seat, "card": "x", "x": 2, "y": 0, "removed": "p1"},
            {"type": "map", "seat": seat, "card": "x", "goal": 1},
            {"type": "break", "seat": seat, "card": "x", "target": other, "tool": "lamp"},
            {"type": "repair", "seat": seat, "card": "x", "target": other, "tool": "cart"},
            {"type": "pass", "seat": seat, "count": 2}]


@pytest.mark.parametrize(("ruleset", "seats"), [("base", 5), ("base", 9), ("saboteur2", 5),
                                                ("saboteur2", 10)])
def test_a_bots_own_moves_leave_its_belief_unchanged(ruleset: str, seats: int) -> None:
    state = new_game(seats, 11, ruleset)
    seen = view(state, 0)
    assert seen["log"] is not None
    later: SeatView = {**seen, "log": [*seen["log"], *own_moves(0, 2)]}
    before, after = joint_belief(seen, seed=5), joint_belief(later, seed=5)
    assert before is not None and after is not None
    for seat in range(1, seats):
        assert after.marginal(seat) == pytest.approx(before.marginal(seat))
    assert after.gold() == pytest.approx(before.gold())
    factorised, moved = believe(seen), believe(later)
    for seat in range(1, seats):
        assert moved.probs[seat] == pytest.approx(factorised.probs[seat])


def test_a_move_aimed_at_the_bot_weighs_what_the_aimer_could_know() -> None:
    """Seat 2 breaks seat 0's tools: how much that says about seat 2 is the same whether
    seat 0 is a gold-digger or a saboteur (seat 2 could not see which)."""
    state = new_game(5, 4)
    odds = []
    for role in ("gold-digger", "saboteur"):
        seen = {**view(state, 0), "role": role}
        assert seen["log"] is not None
        broken: SeatView = {**seen, "log": [*seen["log"], {  # type: ignore[typeddict-item]
            "type": "break", "seat": 2, "card": "x", "target": 0, "tool": "lamp"}]}
        before, after = joint_belief(seen), joint_belief(broken)  # type: ignore[arg-type]
        assert before is not None and after is not None
        prior, post = before.marginal(2), after.marginal(2)
        odds.append((post["saboteur"] / post["gold-digger"])
                    / (prior["saboteur"] / prior["gold-digger"]))
    assert odds[0] == pytest.approx(odds[1])


def test_the_sampled_posterior_is_normalised_seeded_and_near_the_exact_one() -> None:
    state = new_game(6, 21, "saboteur2")
    turn = 0
    while turn < 30:
        seen = view(state, state.actor)
        state = apply(state, choose_move(seen, legal_moves(state), turn))
        turn += 1
    seen = view(state, 0)
    exact = joint_belief(seen)
    sampled = joint_belief(seen, limit=0, seed=3)
    again = joint_belief(seen, limit=0, seed=3)
    assert exact is not None and exact.exact
    assert sampled is not None and again is not None and not sampled.exact
    assert math.isclose(sum(sampled.weights), 1.0, abs_tol=1e-9)
    assert (sampled.hyps, sampled.weights) == (again.hyps, again.weights)  # same inputs
    for seat in range(1, 6):
        for role, p in exact.marginal(seat).items():
            assert sampled.marginal(seat)[role] == pytest.approx(p, abs=0.06)
    assert sampled.gold() == pytest.approx(exact.gold(), abs=0.03)


@pytest.mark.parametrize("seats", [7, 9, 12])
def test_saboteur2_tables_of_seven_or_more_are_sampled_over_bot_games(seats: int) -> None:
    checked = 0
    for game in range(3):
        state = new_game(seats, 900 + game, "saboteur2")
        turn = 0
        while state.phase == "play" and turn < 60:
            if turn % 6 == 5:
                joint = check_joint(state, turn % seats)
                assert joint is not None  # exact only once the gold is known at 7
                checked += not joint.exact
            seen = view(state, state.actor)
            state = apply(state, choose_move(seen, legal_moves(state), seats * turn))
            turn += 1
    assert checked >= 5


def test_after_swap_your_hats_the_joint_is_sampled_not_dropped() -> None:
    swaps = 0
    # 2 to 7 seats: exact tables and, at 7, a sampled one (16 games, to 12 seats, cost 6 s).
    for state in positions("saboteur2", games=6, seed=300):
        event = state.log[-1]
        if state.phase != "play" or event.get("type") != "swap_hats":
            continue
        swaps += 1
        target = int(event["target"])
        for seat in {target, (target + 1) % state.seats}:
            joint = check_joint(state, seat)
            assert joint is not None and not joint.exact
            if seat == target:  # the new hat is this seat's own: known
                assert joint.marginal(seat)[state.roles[seat]] == pytest.approx(1.0)
    assert swaps >= 1


@settings(max_examples=25, deadline=None)
@given(ruleset=st.sampled_from(["base", "saboteur2"]), seed=st.integers(0, 2**32),
       seats=st.integers(2, 12), steps=st.integers(0, 150))
def test_own_moves_leave_the_belief_unchanged_at_any_position(
        ruleset: str, seed: int, seats: int, steps: int) -> None:
    """Exact or sampled (Saboteur 2 at 7 or more seats, after a swap), whatever came
    before: a lap of the seat's own moves moves no other seat's marginal nor the gold."""
    state = random_position(ruleset, seed, seats, steps)
    if state is None or state.phase != "play":
        return
    me = seed % state.seats
    seen = view(state, me)
    assert seen["log"] is not None
    later: SeatView = {**seen, "log": [*seen["log"], *own_moves(me, (me + 1) % state.seats)]}
    before, after = joint_belief(seen, seed=seed), joint_belief(later, seed=seed)
    assert (before is None) == (after is None)
    if before is None or after is None:
        return
    for seat in range(state.seats):
        if seat != me:
            assert after.marginal(seat) == pytest.approx(before.marginal(seat))
    assert after.gold() == pytest.approx(before.gold())


@pytest.mark.slow  # 12 sampled posteriors and 24 strong moves at up to 12 seats: 3-5 s
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(7, 12), steps=st.integers(0, 150),
       bot_seed=st.integers(0, 2**63))
def test_large_saboteur2_tables_are_sampled_normalised_certain_and_seeded(
        seed: int, seats: int, steps: int, bot_seed: int) -> None:
    """Saboteur 2 at 7-12 seats: the sampled posterior sums to 1, respects doors and
    inspections and keeps the true deal's mass measured (check_joint); the same seed
    gives the same posterior and the same strong move."""
    state = random_position("saboteur2", seed, seats, steps)
    if state is None or state.phase != "play":
        return
    seat = state.actor
    assert seat is not None
    assert check_joint(state, seat) is not None
    seen, moves = view(state, seat), legal_moves(state)
    first, again = joint_belief(seen, seed=bot_seed), joint_belief(seen, seed=bot_seed)
    assert first is not None and again is not None
    assert (first.hyps, first.weights) == (again.hyps, again.weights)
    with pytest.MonkeyPatch.context() as patch:  # a short search: the seed is the point
        patch.setattr(LOOKAHEAD, "WORLDS", 2)
        patch.setattr(LOOKAHEAD, "STEPS", 12)
        move = choose_move(seen, moves, bot_seed, level="strong")
        assert choose_move(view(state, seat), legal_moves(state), bot_seed,
                           level="strong") == move
