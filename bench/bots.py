"""Bot strength: how often a side wins when bots play it, against random legal movers.

For each ruleset and range of player counts, seeded games are played four ways per
side: random against random (the baseline), bots playing the side against random movers
for everyone else, random movers playing the side against bots, and bots against bots.
Who plays a seat is decided at each turn from the seat's role (the benchmark is the
referee and may look; the bots themselves only get `engine.view(state, seat)`).
Each game is played to the end of its first round by default: a round is what a side
wins, and the next rounds are the same contest dealt afresh
(`--rounds 3` plays whole games and counts every round).

Sides: base game - the gold-diggers and the saboteurs; Saboteur 2 - the blue team, the
green team and the saboteurs. A team "wins" a round when the round's result names it.

    python bench/bots.py [--games 1000] [--workers 2] [--ruleset base|saboteur2|all]
                         [--rounds 1] [--head-to-head]

`--head-to-head` compares the bot levels instead (bench/bots_h2h.py): for each side,
normal bots everywhere against the strong level playing that side (normal opponents),
and the strong level playing its opponents (normal side); with the time per strong move.

`--duplicate` compares them in duplicate play (bench/bots_dup.py): each deal played with
the strong level in the side's seats and with the normal level there, everything else
equal; the gain is the mean per-deal difference with a 95% interval from the paired
differences. Resumable: games are appended to `--results` and a rerun continues;
`--table` prints the table from that file without playing.

    python bench/bots.py --duplicate [--games 200] [--first-seed 0] [--workers 2]
                         [--results bench/results/duplicate.jsonl] [--table]
                         [--algorithm rollout|joint|team] [--versus rollout|joint|team]
                         [--sides gold-diggers blue green]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import choose_move
from games.bots.strong import ALGORITHMS
from games.engine import State, apply, legal_moves, new_game, view

RANGES: dict[str, list[tuple[int, int]]] = {
    "base": [(3, 5), (6, 8), (9, 10)],
    "saboteur2": [(2, 5), (6, 9), (10, 12)],
}
SIDES: dict[str, dict[str, frozenset[str]]] = {
    "base": {"gold-diggers": frozenset({"gold-digger"}),
             "saboteurs": frozenset({"saboteur"})},
    "saboteur2": {"blue": frozenset({"blue-digger"}), "green": frozenset({"green-digger"}),
                  "saboteurs": frozenset({"saboteur"})},
}
ROLES: dict[str, frozenset[str]] = {
    "base": frozenset({"gold-digger", "saboteur"}),
    "saboteur2": frozenset({"blue-digger", "green-digger", "boss", "profiteer", "geologist",
                            "saboteur"}),
}
DUPLICATES = Path(__file__).resolve().parent / "results" / "duplicate.jsonl"
# A job: (ruleset, low, high, the roles bots play (the rest move at random), seed, rounds).
Job = tuple[str, int, int, frozenset[str], int, int]
Key = tuple[str, int, int, frozenset[str]]


def side_won(ruleset: str, side: str, result: str) -> bool:
    if ruleset == "base":
        return result == side
    return side in result.split("+") if side != "saboteurs" else result == "saboteurs"


def bot_plays(state: State, bots: frozenset[str]) -> bool:
    actor = state.actor
    assert actor is not None
    return state.roles[actor] in bots


def play(job: Job) -> tuple[Key, list[str]]:
    """Play one seeded game (its first `rounds` rounds); the round results."""
    ruleset, low, high, bots, seed, rounds = job
    seats = low + seed % (high - low + 1)
    rng = random.Random(seed)
    state = new_game(seats, seed, ruleset)
    turn = 0
    while not state.finished and state.round <= rounds:
        moves = legal_moves(state)
        if bot_plays(state, bots):
            move = choose_move(view(state, state.actor), moves, seed * 7919 + turn)
        else:
            move = moves[rng.randrange(len(moves))]
        state = apply(state, move)
        turn += 1
    results = [str(e["winners"]) for e in state.log if e["type"] == "round_end"][:rounds]
    return (ruleset, low, high, bots), results


def settings(ruleset: str) -> list[frozenset[str]]:
    """Who bots play: nobody, everybody, each side, everyone but each side (once each:
    in the base game the saboteurs' opponents are the gold-diggers)."""
    everyone = ROLES[ruleset]
    out = [frozenset(), everyone]
    for side in SIDES[ruleset].values():
        for bots in (side, everyone - side):
            if bots not in out:
                out.append(bots)
    return out


def jobs(rulesets: list[str], games: int, rounds: int) -> Iterator[Job]:
    for ruleset in rulesets:
        for low, high in RANGES[ruleset]:
            for bots in settings(ruleset):
                for seed in range(games):
                    yield ruleset, low, high, bots, seed, rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded games per cell")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ruleset", choices=["base", "saboteur2", "all"], default="all")
    parser.add_argument("--rounds", type=int, choices=[1, 2, 3], default=1)
    parser.add_argument("--head-to-head", action="store_true",
                        help="strong against normal bots (bench/bots_h2h.py)")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="head-to-head, duplicate: seeds start here")
    parser.add_argument("--duplicate", action="store_true",
                        help="strong against normal in duplicate deals (bench/bots_dup.py)")
    parser.add_argument("--results", type=Path, default=DUPLICATES,
                        help="duplicate: the results file (appended to; a rerun continues)")
    parser.add_argument("--algorithm", choices=list(ALGORITHMS), default=None,
                        help="duplicate: the strong level's algorithm (its default if unset)")
    parser.add_argument("--versus", choices=list(ALGORITHMS), default=None,
                        help="duplicate: also compare --algorithm with this one, deal by deal")
    parser.add_argument("--sides", nargs="+", default=None,
                        help="duplicate: play only these sides' strong games (e.g. "
                             "gold-diggers blue green); the table shows what the file has")
    parser.add_argument("--table", action="store_true",
                        help="duplicate: print the table from --results, play nothing")
    args = parser.parse_args()
    rulesets = list(RANGES) if args.ruleset == "all" else [args.ruleset]
    if args.duplicate:
        from bots_dup import duplicate

        return duplicate(rulesets, args.games, args.workers, args.rounds, args.first_seed,
                         args.results, table_only=args.table, algorithm=args.algorithm,
                         against=args.versus, sides=args.sides)
    if args.head_to_head:
        from bots_h2h import head_to_head

        return head_to_head(rulesets, args.games, args.workers, args.rounds, args.first_seed)
    started = time.perf_counter()
    results: dict[Key, list[str]] = defaultdict(list)
    work = list(jobs(rulesets, args.games, args.rounds))
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            done: Any = pool.imap_unordered(play, work, chunksize=20)
            for key, rounds in done:
                results[key].extend(rounds)
    else:
        for job in work:
            key, rounds = play(job)
            results[key].extend(rounds)
    elapsed = time.perf_counter() - started
    failures = print_table(rulesets, results, args.games, args.rounds)
    print(f"\n{len(work)} games in {elapsed:.0f} s with {args.workers} worker(s).")
    if failures:
        print("Bots do NOT clearly beat random on: " + ", ".join(failures))
        return 1
    print("Bots beat random on every side (by at least 5 points and 3 standard errors).")
    return 0


def rate(results: list[str], ruleset: str, side: str) -> float:
    return sum(side_won(ruleset, side, r) for r in results) / max(1, len(results))


def clearly(better: float, worse: float, count: int) -> bool:
    """`better` beats `worse` by 5 points and 3 standard errors of the difference."""
    spread = (better * (1 - better) / count + worse * (1 - worse) / count) ** 0.5
    return better - worse >= max(0.05, 3 * spread)


def print_table(rulesets: list[str], results: dict[Key, list[str]], games: int,
                rounds: int) -> list[str]:
    """The table; returns the sides bots do not clearly play better than random movers.

    A side passes when, against the same opponents, bots playing it win clearly more
    often than random movers playing it (against random opponents or against bots),
    and never clearly less often against the other."""
    print(f"Round win rate of each side, {games} seeded games per cell, "
          f"{rounds} round(s) each. Columns: who plays the side vs who plays the rest.\n")
    print("| ruleset | players | side | random vs random | bots vs random | random vs bots "
          "| bots vs bots |")
    print("|---|---|---|---:|---:|---:|---:|")
    failures = []
    for ruleset in rulesets:
        everyone = ROLES[ruleset]
        for low, high in RANGES[ruleset]:
            for name, side in SIDES[ruleset].items():
                cells = [rate(results[(ruleset, low, high, bots)], ruleset, name)
                         for bots in (frozenset(), side, everyone - side, everyone)]
                count = len(results[(ruleset, low, high, frozenset())])
                print(f"| {ruleset} | {low}-{high} | {name} | "
                      + " | ".join(f"{c:.1%}" for c in cells) + " |")
                rr, br, rb, bb = cells
                better = clearly(br, rr, count) or clearly(bb, rb, count)
                worse = clearly(rr, br, count) or clearly(rb, bb, count)
                if not better or worse:
                    failures.append(f"{ruleset} {low}-{high} {name}")
    return failures


if __name__ == "__main__":
    sys.exit(main())
