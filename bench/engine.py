"""Engine speed: legal_moves and apply on a crowded maze, and whole random games.

Each figure is printed next to a baseline measured in the same run: the time of a JSON
round trip (to_json -> json text -> from_json) of the same state. Targets:
legal_moves on the crowded maze within 2 ms, a whole random 10-seat game within 0.5 s.

    python bench/engine.py [--ruleset base|saboteur2|all] [--games N]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import RULESETS, Move, State, apply, legal_moves, new_game, rules_for


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def round_trip(state: State) -> State:
    return State.from_json(json.loads(json.dumps(state.to_json())))


def crowded(ruleset: str, seed: int = 1) -> State:
    """Every path card but six in the maze (each placed where the rules allow it, never
    next to a goal so the round goes on), six ordinary tunnels in seat 0's hand."""
    rules = rules_for(ruleset)
    state = new_game(rules.min_seats if ruleset == "base" else 4, seed, ruleset)
    rng = random.Random(seed)
    paths = [c for c in rules.deck_cards if rules.cards[c].kind == "path"]
    rng.shuffle(paths)
    plain = [c for c in paths if not rules.cards[c].special and len(rules.cards[c].segments)
             == 1 and bin(rules.cards[c].exits).count("1") >= 3]
    keep = plain[:6]
    # Open cards first, dead ends last, so the maze keeps growing instead of walling in.
    rest = sorted((c for c in paths if c not in keep),
                  key=lambda c: (rules.cards[c].dead_end, -bin(rules.cards[c].exits).count("1")))
    for hand in state.hands:
        hand.clear()
    state.deck = [c for c in rules.deck_cards if c not in paths]
    role = state.roles[0]
    progress = True
    while rest and progress:
        progress = False
        for card_id in list(rest):
            card = rules.cards[card_id]
            door = next((g.door for g in card.segments if g.door), None)
            state.roles[0] = f"{door}-digger" if door else role
            fits = [(slot, r) for slot in rules.maze(state).slots() for r in (False, True)
                    if not slot.near_goal and rules.fits(state, 0, slot, card, r)]
            if fits:
                slot, rotated = rng.choice(fits)
                state.board[slot.cell] = (card_id, rotated)
                rest.remove(card_id)
                progress = True
    state.roles[0] = role
    state.discard.extend(rest)
    state.hands[0] = keep
    state.cache.clear()
    return state


def most_crowded(ruleset: str) -> State:
    """Of a few seeds, the fullest maze in which the hand can still dig."""
    def score(state: State) -> tuple[int, int]:
        places = sum(1 for m in legal_moves(state) if m["type"] == "place")
        return (len(state.board) if places else 0, places)
    return max((crowded(ruleset, seed) for seed in range(1, 16)), key=score)


def bench_position(ruleset: str, repeat: int) -> None:
    state = most_crowded(ruleset)
    moves = legal_moves(state)
    base = median_time(lambda: round_trip(state), repeat)

    def fresh_legal() -> object:
        state.cache.clear()  # measure the full cost, maze included
        return legal_moves(state)

    t_legal = median_time(fresh_legal, repeat)
    places = [m for m in moves if m["type"] == "place"]
    sample = places[:: max(1, len(places) // 25)]
    def fresh_apply(move: Move) -> Callable[[], object]:
        def run() -> object:
            state.cache.clear()  # the maze is rebuilt, as for a state loaded from the DB
            return apply(state, move)
        return run

    t_apply = statistics.median(median_time(fresh_apply(m), max(5, repeat // 10))
                                for m in sample)
    print(f"[{ruleset}] crowded maze: {len(state.board)} cards, hand {len(state.hands[0])}, "
          f"{len(moves)} legal moves ({len(places)} placements)")
    print(f"  json round trip (baseline) {base * 1e3:8.3f} ms")
    print(f"  legal_moves                {t_legal * 1e3:8.3f} ms   ratio {t_legal / base:6.2f}"
          f"   target 2 ms: {'OK' if t_legal <= 0.002 else 'MISSED'}")
    print(f"  apply (median of {len(sample)} placements) {t_apply * 1e3:5.3f} ms   ratio "
          f"{t_apply / base:6.2f}")


def random_game(seats: int, seed: int, ruleset: str) -> State:
    rng = random.Random(seed)
    state = new_game(seats, seed, ruleset)
    while not state.finished:
        state = apply(state, rng.choice(legal_moves(state)))
    return state


def bench_games(ruleset: str, games: int) -> None:
    seats = min(10, rules_for(ruleset).max_seats)
    times, bases = [], []
    for seed in range(games):
        start = time.perf_counter()
        final = random_game(seats, seed, ruleset)
        times.append(time.perf_counter() - start)
        bases.append(median_time(partial(round_trip, final), 5))
    t, b = statistics.median(times), statistics.median(bases)
    print(f"[{ruleset}] whole random {seats}-seat game (median of {games}): {t * 1e3:8.1f} ms"
          f"   json round trip of its final state {b * 1e3:6.3f} ms   ratio {t / b:7.1f}"
          f"   target 0.5 s: {'OK' if t <= 0.5 else 'MISSED'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", default="all")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    rulesets = sorted(RULESETS) if args.ruleset == "all" else [args.ruleset]
    for ruleset in rulesets:
        bench_position(ruleset, args.repeat)
        bench_games(ruleset, args.games)


if __name__ == "__main__":
    main()
