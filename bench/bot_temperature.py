"""The joint belief's temperature, measured on self-play (games/bots/strong/joint.py).

Seeded first rounds of normal bots (seeds from 10,000: not the games the likelihood
table was counted on nor the corpus the evidence model was trained on) at every seat
count; at every fifth turn in play, the seat to act's joint posterior is computed at
each temperature, weighing the moves by the likelihood table ("table") and by the
learned evidence model ("model"), and scored by the log probability it gives the true
roles of the other seats (summed over the gold; where the posterior is sampled,
Saboteur 2 with 7 or more seats ("7+"), the estimate `Joint.estimate`; positions after
a swap are left out). The temperature with the highest mean is the one to use; the
factorised belief's log probability (the product of its per-seat marginals) is printed
beside it for comparison.

The look-ahead's reply policy (games/bots/strong/lookahead.py) is measured the same way:
the mean log probability of the move the normal bot played under exp(score / T) over
its legal moves, at each policy temperature T (in score points).

    python bench/bot_temperature.py [--games 60] [--temperatures 1 1.5 2]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import choose_move
from games.bots.context import build
from games.bots.normal import score_all
from games.bots.strong import believe
from games.bots.strong.joint import joint_belief
from games.engine import State, apply, legal_moves, new_game, rules_for, view

TEMPERATURES = (1.0, 1.5, 2.0, 3.0, 4.0)
POLICY_TEMPERATURES = (0.25, 0.5, 1.0, 2.0, 4.0)
FIRST_SEED = 10_000


def true_log(state: State, seat: int, temperature: float, *,
             learned: bool = False) -> float | None:
    """log P(the others' true roles) under the seat's joint belief (summed over the
    gold; a sampled belief's estimate where the truth was not drawn); None if the
    belief cannot explain the view or a hat was swapped this round."""
    joint = joint_belief(view(state, seat), temperature, seed=seat, learned=learned)
    if joint is None or (joint.evidence is not None and joint.evidence.swaps):
        return None  # after a swap the true deal's mass is only known if it was drawn
    truth = [str(r) for r in state.roles]
    mass = sum(joint.estimate(truth, gold) for gold in range(3))
    return math.log(max(mass, 1e-12))


def factorised_log(state: State, seat: int) -> float:
    belief = believe(view(state, seat))
    return sum(math.log(max(belief.p(s, state.roles[s]), 1e-12))
               for s in range(state.seats) if s != seat)


def policy_logs(state: State, seat: int, played: dict[str, object]) -> dict[str, float]:
    """log P(the played move) under exp(score / T) over the legal moves, per T."""
    moves = legal_moves(state)
    scores = score_all(build(view(state, seat)), moves)
    chosen = scores[next(i for i, m in enumerate(moves) if m == played)]
    out = {}
    for t in POLICY_TEMPERATURES:
        top = max(scores)
        total = sum(math.exp((s - top) / t) for s in scores)
        out[f"policy T={t}"] = (chosen - top) / t - math.log(total)
    return out


def measure(ruleset: str, games: int,
            temperatures: tuple[float, ...] = TEMPERATURES) -> dict[str, list[float]]:
    rules = rules_for(ruleset)
    scores: dict[str, list[float]] = defaultdict(list)
    for game in range(games):
        seed = FIRST_SEED + game
        seats = rules.min_seats + game % (rules.max_seats - rules.min_seats + 1)
        state = new_game(seats, seed, ruleset)
        turn = 0
        while not state.finished and state.round == 1:
            seat = state.actor
            assert seat is not None
            if state.phase == "play" and turn % 5 == 4:
                logs = {f"{'model' if learned else 'table'} T={t}":
                        true_log(state, seat, t, learned=learned)
                        for t in temperatures for learned in (False, True)}
                if all(v is not None for v in logs.values()):
                    band = "7+" if seats >= 7 and ruleset == "saboteur2" else "all"
                    for name, v in logs.items():
                        scores[f"{band} {name}"].append(float(v or 0.0))
                    scores[f"{band} factorised"].append(factorised_log(state, seat))
            move = choose_move(view(state, seat), legal_moves(state), seed * 7919 + turn)
            if state.phase == "play" and turn % 5 == 4 and len(legal_moves(state)) > 1:
                for name, value in policy_logs(state, seat, dict(move)).items():
                    scores[name].append(value)
            state = apply(state, move)
            turn += 1
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="first rounds per ruleset")
    parser.add_argument("--temperatures", type=float, nargs="+", default=TEMPERATURES)
    args = parser.parse_args()
    for ruleset in ("base", "saboteur2"):
        scores = measure(ruleset, args.games, tuple(args.temperatures))
        count = {k: len(v) for k, v in scores.items() if k.endswith("factorised")}
        print(f"{ruleset}: positions {count}, mean log P(true roles):", flush=True)
        for name, values in scores.items():
            print(f"  {name}: {sum(values) / max(1, len(values)):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
