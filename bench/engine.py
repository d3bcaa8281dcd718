"""Engine speed: legal_moves and apply on a crowded maze, and whole random games.

Each figure is printed next to a baseline measured in the same run: the time of a JSON
round trip (to_json -> json text -> from_json) of the same state. Targets (issue 2):
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import RULESETS, State, apply, legal_moves, new_game, rules_for  # noqa: E402


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
    """Every path card but six in the maze (placed legally, greedily), six in seat 0's hand."""
    rules = rules_for(ruleset)
    state = new_game(rules.min_seats if ruleset == "base" else 4, seed, ruleset)
    rng = random.Random(seed)
    paths = [c for c in rules.deck_cards if rules.cards[c].kind == "path"]
    rng.shuffle(paths)
    keep, rest = paths[:6], paths[6:]
    for hand in state.hands:
        state.deck.extend(hand)
        hand.clear()
    state.deck = [c for c in state.deck if c not in paths]
    state.goal_kinds = ["stone-nw", "stone-ne", "gold"]  # keep the round going
    placed_any = True
    while rest and placed_any:
        placed_any = False
        for card_id in list(rest):
            card = rules.cards[card_id]
            maze = rules.maze(state)
            fits = [(s, r) for s in maze.slots() for r in (False, True)
                    if rules.fits(state, 0, s, card, r) and s.cell not in ((8, 1),)
                    and abs(s.cell[1]) <= 6]
            if fits:
                slot, rotated = rng.choice(fits)
                state.board[slot.cell] = (card_id, rotated)
                rest.remove(card_id)
                placed_any = True
    state.discard.extend(rest)
    state.hands[0] = keep
    for index in range(3):  # whatever got reached stays face down: no reveal in the bench
        state.goal_revealed[index] = False
    state.cache.clear()
    return state


def bench_position(ruleset: str, repeat: int) -> None:
    state = crowded(ruleset)
    moves = legal_moves(state)
    base = median_time(lambda: round_trip(state), repeat)

    def fresh_legal() -> object:
        state.cache.clear()  # measure the full cost, maze included
        return legal_moves(state)

    t_legal = median_time(fresh_legal, repeat)
    sample = moves[:: max(1, len(moves) // 25)]
    t_apply = statistics.median(
        median_time(lambda m=m: (state.cache.clear(), apply(state, m)), max(5, repeat // 10))
        for m in sample)
    print(f"[{ruleset}] crowded maze: {len(state.board)} cards, hand {len(state.hands[0])}, "
          f"{len(moves)} legal moves")
    print(f"  json round trip (baseline) {base * 1e3:8.3f} ms")
    print(f"  legal_moves                {t_legal * 1e3:8.3f} ms   ratio {t_legal / base:6.2f}"
          f"   target 2 ms: {'OK' if t_legal <= 0.002 else 'MISSED'}")
    print(f"  apply (median of {len(sample)} moves) {t_apply * 1e3:5.3f} ms   ratio "
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
        bases.append(median_time(lambda f=final: round_trip(f), 5))
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
