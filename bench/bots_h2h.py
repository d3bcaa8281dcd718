"""Head-to-head of the bot levels (`python bench/bots.py --head-to-head`).

For each ruleset, range of player counts and side, seeded games are played three ways:
normal bots everywhere; the strong level playing the side against normal bots; normal
bots playing the side against the strong level. A side's gain is its round win rate
with the strong level minus the rate with normal bots, against the same (normal)
opponents; the bar is +10 points. Rates are shown with a 95% interval (Wilson), since
a cell of a few dozen games is far from exact. The time of every strong move is kept
(median and 95th percentile).
"""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict

from bots import RANGES, ROLES, SIDES, side_won

from games.bots import choose_move
from games.engine import apply, legal_moves, new_game, view

# A job: (ruleset, low, high, the roles the strong level plays, seed, rounds).
Job = tuple[str, int, int, frozenset[str], int, int]
Key = tuple[str, int, int, frozenset[str]]


def play(job: Job) -> tuple[Key, list[str], list[float]]:
    """One seeded game: the round results and the seconds of each strong move."""
    ruleset, low, high, strong, seed, rounds = job
    seats = low + seed % (high - low + 1)
    state = new_game(seats, seed, ruleset)
    turn = 0
    times: list[float] = []
    while not state.finished and state.round <= rounds:
        actor = state.actor
        assert actor is not None
        level = "strong" if state.roles[actor] in strong else "normal"
        started = time.perf_counter()
        move = choose_move(view(state, actor), legal_moves(state), seed * 7919 + turn,
                           level=level)
        if level == "strong":
            times.append(time.perf_counter() - started)
        state = apply(state, move)
        turn += 1
    results = [str(e["winners"]) for e in state.log if e["type"] == "round_end"][:rounds]
    return (ruleset, low, high, strong), results, times


def settings(ruleset: str) -> list[frozenset[str]]:
    """Whom the strong level plays: nobody, each side, and everyone but the saboteurs
    (strong diggers against normal saboteurs; in the base game that is the diggers).
    The other reverses (Saboteur 2: one team normal, everyone else strong) are left out
    to keep a run within reach of this machine."""
    everyone = ROLES[ruleset]
    out: list[frozenset[str]] = [frozenset()]
    for side in [*SIDES[ruleset].values(), everyone - frozenset({"saboteur"})]:
        if side not in out:
            out.append(side)
    return out


def wilson(wins: float, count: int) -> tuple[float, float]:
    """95% Wilson interval of a rate."""
    if count == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / count
    centre = (p + z * z / (2 * count)) / (1 + z * z / count)
    half = z * (p * (1 - p) / count + z * z / (4 * count * count)) ** 0.5 / (1 + z * z / count)
    return max(0.0, centre - half), min(1.0, centre + half)


def cell(results: list[str], ruleset: str, side: str) -> str:
    wins = sum(side_won(ruleset, side, r) for r in results)
    low, high = wilson(wins, len(results))
    rate = wins / max(1, len(results))
    return f"{rate:.0%} ({low:.0%}-{high:.0%})"


def pooled(results: dict[Key, list[str]], ruleset: str, band: tuple[int, int] | None,
           strong: frozenset[str]) -> list[str]:
    """The round results of one setting in one band of player counts, or in all."""
    bands = RANGES[ruleset] if band is None else [band]
    return [r for low, high in bands for r in results[(ruleset, low, high, strong)]]


def head_to_head(rulesets: list[str], games: int, workers: int, rounds: int,
                 first_seed: int = 0) -> int:
    started = time.perf_counter()
    results: dict[Key, list[str]] = defaultdict(list)
    times: list[float] = []
    work = [(ruleset, low, high, strong, seed, rounds) for ruleset in rulesets
            for low, high in RANGES[ruleset] for strong in settings(ruleset)
            for seed in range(first_seed, first_seed + games)]
    random.Random(0).shuffle(work)  # every cell fills at the same pace (a cut-off run)
    for done, job in enumerate(work, start=1):
        key, rounds_won, spent = play(job)
        results[key].extend(rounds_won)
        times.extend(spent)
        if done % 60 == 0:
            print(f"  {done}/{len(work)} games, {time.perf_counter() - started:.0f} s",
                  flush=True)
            table(rulesets, results, times)
    print(f"{len(work)} games in {time.perf_counter() - started:.0f} s, in one process "
          "(--workers does not apply: strong moves are timed).")
    return table(rulesets, results, times, games, rounds)


def table(rulesets: list[str], results: dict[Key, list[str]], times: list[float],
          games: int = 0, rounds: int = 1) -> int:
    """The table and the times; 1 when a side falls short of the bar."""
    print(f"Round win rate of each side, {games} seeded games per cell, {rounds} round(s) "
          "each, with 95% intervals. Columns: the levels playing the side vs the rest.\n")
    print("| ruleset | players | side | normal vs normal | strong vs normal "
          "| normal vs strong | gain |")
    print("|---|---|---|---:|---:|---:|---:|")
    short = []
    for ruleset in rulesets:
        everyone = ROLES[ruleset]
        bands = [*RANGES[ruleset], None]  # None: every player count pooled
        for band in bands:
            for name, side in SIDES[ruleset].items():
                cells = [pooled(results, ruleset, band, s)
                         for s in (frozenset(), side, everyone - side)]
                rates = [sum(side_won(ruleset, name, r) for r in c) / max(1, len(c))
                         for c in cells]
                gain = rates[1] - rates[0]
                players = "all" if band is None else f"{band[0]}-{band[1]}"
                print(f"| {ruleset} | {players} | {name} | "
                      + " | ".join(cell(c, ruleset, name) if c else "-" for c in cells)
                      + f" | {gain * 100:+.0f} |")
                if gain < 0.10 and band is not None:
                    short.append(f"{ruleset} {players} {name}")
    if times:
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(f"\nTime per strong move: median {statistics.median(ordered) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms "
              f"({len(ordered)} moves).")
    if short:
        print("Below the +10 point bar: " + ", ".join(short))
        return 1
    print("The strong level gains at least 10 points on every side.")
    return 0
