"""The strong bot's likelihoods: P(kind of move | role), measured by self-play.

Seeded games of normal bots are played through the engine at every seat count of both
rulesets; each move of the log is reduced to the strong bot's feature
(games/bots/strong/belief.py `feature`) and counted under the role its player held at
the round's end. Moves aimed at another seat (breaking, mending, trapping, freeing) are
also counted by the pair (actor's role, target's role). The result is written to
games/bots/strong/likelihoods.json (small, committed):

    {ruleset: {"single": {role: {feature: P}},
               "pairs": {kind: {actor_role | "*": {target_role: P}}},
               "games": N}}

    python bench/bot_likelihoods.py [--games 300]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import choose_move
from games.bots.strong.belief import TABLE, keyed, pair_key
from games.engine import apply, legal_moves, new_game, rules_for, view

Counts = dict[str, Counter[str]]


def play_rounds(ruleset: str, seats: int, seed: int) -> list[list[dict[str, object]]]:
    """The log of each round of one all-bot game, ending with its round_end."""
    state = new_game(seats, seed, ruleset)
    turn = 0
    while not state.finished:
        state = apply(state, choose_move(view(state, state.actor), legal_moves(state),
                                         seed * 7919 + turn))
        turn += 1
    rounds: list[list[dict[str, object]]] = []
    current: list[dict[str, object]] = []
    for event in state.log:
        if event["type"] == "round_start":
            current = []
        current.append(event)
        if event["type"] == "round_end":
            rounds.append(current)
            current = []
    return rounds


def count(ruleset: str, games: int) -> tuple[Counts, dict[str, Counts]]:
    single: Counts = defaultdict(Counter)
    pairs: dict[str, Counts] = defaultdict(lambda: defaultdict(Counter))
    rules = rules_for(ruleset)
    span = rules.max_seats - rules.min_seats + 1
    for seed in range(games):
        seats = rules.min_seats + seed % span
        for log in play_rounds(ruleset, seats, seed):
            roles = log[-1]["roles"]
            assert isinstance(roles, list)
            for event, key in keyed(log, seats, ruleset):
                if key is None:
                    continue
                actor = roles[int(str(event["seat"]))]
                single[actor][key] += 1
                aimed = pair_key(event)
                if aimed is not None:
                    target = roles[int(str(event["target"]))]
                    pairs[aimed][actor][target] += 1
                    pairs[aimed]["*"][target] += 1
    return single, pairs


def normalised(counts: Counter[str], keys: set[str]) -> dict[str, float]:
    """Add-one smoothed probabilities over `keys`, rounded (a small committed file)."""
    total = sum(counts.values()) + len(keys)
    return {k: round((counts[k] + 1) / total, 5) for k in sorted(keys)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="seeded games per ruleset")
    args = parser.parse_args()
    out: dict[str, object] = {}
    for ruleset in ("base", "saboteur2"):
        single, pairs = count(ruleset, args.games)
        features = {k for c in single.values() for k in c}
        roles = set(single) | {t for p in pairs.values() for c in p.values() for t in c}
        out[ruleset] = {
            "games": args.games,
            "single": {r: normalised(single[r], features) for r in sorted(single)},
            "pairs": {kind: {a: normalised(c, roles) for a, c in sorted(by.items())}
                      for kind, by in sorted(pairs.items())},
        }
        print(ruleset, sum(sum(c.values()) for c in single.values()), "moves counted")
    TABLE.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"written {TABLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
