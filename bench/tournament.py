"""Tournaments on self-play: does the Swiss pairing (games.tournaments.core.pairing) keep
its promises, and do the standings find the stronger players, plain and duplicate?

A field of `--players` players of known strength plays `--rounds` rounds at tables of
`--size` (bots fill a short table), paired and scored exactly as the server does
(games.tournaments.core.pairing.pair_round with the round's seed; event_scores), each
table a whole game (`--game-rounds` rounds of Saboteur) played by the engine. A player's
strength is how often they play the normal bot's move (games.bots) instead of a random
legal one: three levels, each with noise (weak 0-20%, middling 50-70%, good 90-100%).
Plain: every table its own deal. Duplicate: every table of a round the same deal, each
player scored against those who held the same seat (matchpoints). It prints:

1. the pairing's CPU time per round (the slowest; bar: under 2 s; CPU rather than the
   wall clock, which on a shared machine measures the neighbours);
2. the share of player pairs who met more than once, of the pairs who met (bar: 3%);
3. the seat-order imbalance: each player's seat balance (-1 a first seat, +1 a last,
   summed over their games), the largest absolute value (bar: at most 1);
4. Kendall's tau between the final standings and the true strength, plain and
   duplicate (the same field and seeds).

A bot filling a short table plays the normal bot's every move.

    python bench/tournament.py [--players 64] [--rounds 5] [--size 5] [--game-rounds 3]
        [--seed 1] [--workers 2] [--mode plain|duplicate|both]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import choose_move
from games.engine import apply, legal_moves, new_game, view
from games.tournaments.core import event_scores, pairing

BANDS = ((0.0, 0.2), (0.5, 0.7), (0.9, 1.0))  # share of the normal bot's moves


def play_table(job: tuple[list[float], int, int]) -> list[int]:
    """One game to its end (or `rounds` rounds): each seat plays the normal bot's move with
    its skill's probability, else a random legal move. The nuggets per seat."""
    skills, seed, rounds = job
    rng = random.Random(seed ^ 0x5EED)
    state = new_game(len(skills), seed)
    turn = 0
    while not state.finished and state.round <= rounds:
        actor = state.actor
        assert actor is not None
        legal = legal_moves(state)
        if rng.random() < skills[actor]:
            move = choose_move(view(state, actor), legal, seed * 7919 + turn)
        else:
            move = rng.choice(legal)
        state = apply(state, move)
        turn += 1
    return list(state.scores)


def kendall_tau(first: Sequence[float], second: Sequence[float]) -> float:
    """Kendall's tau-b of two rankings (ties allowed)."""
    concordant = discordant = ties_a = ties_b = 0
    for i, j in combinations(range(len(first)), 2):
        a = (first[i] > first[j]) - (first[i] < first[j])
        b = (second[i] > second[j]) - (second[i] < second[j])
        if a == 0 and b == 0:
            continue
        if a == 0:
            ties_a += 1
        elif b == 0:
            ties_b += 1
        elif a == b:
            concordant += 1
        else:
            discordant += 1
    pairs = concordant + discordant
    denominator = ((pairs + ties_a) * (pairs + ties_b)) ** 0.5
    return (concordant - discordant) / denominator if denominator else 0.0


def run(args: argparse.Namespace, skills: dict[int, float], *, duplicate: bool,
        pool: multiprocessing.pool.Pool) -> dict[str, float]:
    ids = sorted(skills)
    results: list[event_scores.TableResult] = []
    seated_tables: list[list[int]] = []
    balance: dict[int, float] = dict.fromkeys(ids, 0.0)
    held: dict[int, set[int]] = {who: set() for who in ids}
    slowest = 0.0
    for number in range(1, args.rounds + 1):
        scores = event_scores.scores_of(ids, results)
        meetings = pairing.meetings_of(seated_tables)
        entrants = [pairing.Entrant(id=who, score=scores[who], balance=balance[who],
                                    seats_held=frozenset(held[who])) for who in ids]
        started = time.process_time()  # CPU: the machine may be shared
        found = pairing.pair_round(entrants, meetings, low=args.size, high=args.size,
                                   seed=args.seed * 1000 + number, duplicate=duplicate)
        slowest = max(slowest, time.process_time() - started)
        deal = args.seed * 100_003 + number
        jobs = []
        for index, table in enumerate(found.tables):
            seed = deal if duplicate else deal * 101 + index
            jobs.append(([skills[who] if who is not None else 1.0 for who in table], seed,
                         args.game_rounds))
            for seat, who in enumerate(table):
                if who is not None:
                    balance[who] += pairing.seat_balance(seat, len(table))
                    held[who].add(seat)
            seated_tables.append([who for who in table if who is not None])
        for table, nuggets in zip(found.tables, pool.map(play_table, jobs), strict=True):
            holders = tuple(table)
            results.append(event_scores.TableResult(
                round=number, deal=f"{number}:{args.size}" if duplicate else None,
                holders=holders, nuggets=tuple(nuggets)))
    final = event_scores.standings(ids, results)
    placed = {row.member: -row.rank for row in final}
    met = pairing.meetings_of(seated_tables)
    return {"slowest_s": slowest,
            "repeat_share": sum(1 for n in met.values() if n > 1) / max(len(met), 1),
            "imbalance": max(abs(value) for value in balance.values()),
            "tau": kendall_tau([placed[who] for who in ids], [skills[who] for who in ids])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--game-rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--mode", choices=("plain", "duplicate", "both"), default="both")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    skills = {who: rng.uniform(*BANDS[who % len(BANDS)]) for who in range(args.players)}
    modes = ("plain", "duplicate") if args.mode == "both" else (args.mode,)
    failed = False
    with multiprocessing.Pool(args.workers) as pool:
        for mode in modes:
            started = time.perf_counter()
            found = run(args, skills, duplicate=mode == "duplicate", pool=pool)
            print(f"{mode:9}  pairing {found['slowest_s']:.3f} s CPU/round (bar < 2)  "
                  f"pairs met twice {100 * found['repeat_share']:.1f}% (bar <= 3)  "
                  f"seat imbalance {found['imbalance']:.2f} (bar <= 1)  "
                  f"Kendall tau {found['tau']:.3f}  "
                  f"[{time.perf_counter() - started:.0f} s]")
            failed |= (found["slowest_s"] >= 2 or found["repeat_share"] > 0.03
                       or found["imbalance"] > 1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
