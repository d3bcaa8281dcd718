"""Train the strong bot's evidence model (games/bots/strong/evidence.py) on the
self-play corpus (bench/bot_corpus.py) and compare it with the likelihood table.

Per ruleset, a multinomial logistic regression of the actor's role on the move's
features (`evidence.features`, with the gold where it really was: the corpus knows),
the role's share of the round's dwarf cards as a fixed offset, L2 penalty L2, full-batch
Adam for ITERATIONS steps from zero weights: no randomness, so the same corpus (the same
seeds) always gives the same weights. Games whose seed is 0 mod 5 are held out; the
held-out log loss of P(actor's role | move) is printed per role for the prior alone
(the dwarf cards), today's table (games/bots/strong/likelihoods.json: P(key | role) x
the prior) and the model, then the weights (fitted on the other games) are written to
games/bots/strong/evidence_model.json with the corpus's seeds and those figures.

    python bench/bot_model.py [--corpus bench/results/bot_corpus.jsonl] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_corpus import OUT, read

from games.bots.strong.belief import SMOOTH, table
from games.bots.strong.evidence import MODEL, features

ITERATIONS = 300
RATE = 0.1
L2 = 1e-4  # per record
HELD_OUT = 5  # seeds 0 mod 5 are held out

Row = tuple[tuple[tuple[int, float], ...], int, tuple[float, ...]]  # features, role, offset


def offsets(pool: list[str], roles: list[str]) -> tuple[float, ...]:
    counts = Counter(pool)
    return tuple(math.log(max(counts[r], 1e-3) / len(pool)) for r in roles)


def rows(records: list[dict[str, Any]], roles: list[str],
         names: dict[str, int]) -> Counter[Row]:
    """Identical records pooled (the fit weighs each by its count)."""
    out: Counter[Row] = Counter()
    for record in records:
        found = features(record["key"], record["deltas"], record["mapped"], record["gold"])
        for name in found:
            names.setdefault(name, len(names))
        out[(tuple(sorted((names[n], v) for n, v in found.items())),
             roles.index(record["role"]), offsets(record["pool"], roles))] += 1
    return out


def probabilities(weights: list[list[float]], row: Row) -> list[float]:
    feats, _, offset = row
    logits = [offset[r] + sum(weights[r][i] * v for i, v in feats)
              for r in range(len(offset))]
    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    return [e / total for e in exps]


def fit(data: Counter[Row], classes: int, size: int, iterations: int = ITERATIONS
        ) -> list[list[float]]:
    """Adam on the mean negative log likelihood plus L2 / 2 x |w|^2."""
    weights = [[0.0] * size for _ in range(classes)]
    first = [[0.0] * size for _ in range(classes)]
    second = [[0.0] * size for _ in range(classes)]
    total = sum(data.values())
    ordered = sorted(data.items())
    for step in range(1, iterations + 1):
        grad = [[L2 * w for w in row] for row in weights]
        for row, count in ordered:
            probs = probabilities(weights, row)
            feats, role, _ = row
            for r, p in enumerate(probs):
                error = (p - (r == role)) * count / total
                if error:
                    for i, v in feats:
                        grad[r][i] += error * v
        for r in range(classes):
            for i in range(size):
                g = grad[r][i]
                first[r][i] = 0.9 * first[r][i] + 0.1 * g
                second[r][i] = 0.999 * second[r][i] + 0.001 * g * g
                m = first[r][i] / (1 - 0.9 ** step)
                v = second[r][i] / (1 - 0.999 ** step)
                weights[r][i] -= RATE * m / (math.sqrt(v) + 1e-8)
    return weights


def train(records: list[dict[str, Any]], iterations: int = ITERATIONS
          ) -> tuple[list[str], dict[str, dict[str, float]]]:
    """The roles and each role's weights, rounded (what the model file holds)."""
    roles = sorted({r["role"] for r in records} | {p for r in records for p in r["pool"]})
    names: dict[str, int] = {}
    data = rows(records, roles, names)
    fitted = fit(data, len(roles), len(names), iterations)
    by_index = sorted(names, key=lambda n: names[n])
    return roles, {role: {name: round(fitted[r][i], 5) for i, name in enumerate(by_index)
                          if round(fitted[r][i], 5)}
                   for r, role in enumerate(roles)}


def losses(records: list[dict[str, Any]], ruleset: str, roles: list[str],
           weights: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """Per true role (and "all"): mean -log P(actor's role | move) for the prior, the
    table and the model."""
    single = table().get(ruleset, {}).get("single", {})
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for record in records:
        offset = offsets(record["pool"], roles)
        truth = roles.index(record["role"])
        found = features(record["key"], record["deltas"], record["mapped"], record["gold"])
        logits = {
            "prior": list(offset),
            "table": [o + math.log(max(SMOOTH, single.get(r, {}).get(record["key"], SMOOTH)))
                      for o, r in zip(offset, roles, strict=True)],
            "model": [o + sum(weights[r].get(n, 0.0) * v for n, v in found.items())
                      for o, r in zip(offset, roles, strict=True)],
        }
        for group in (record["role"], "all"):
            sums[group]["n"] += 1
            for name, values in logits.items():
                top = max(values)
                norm = top + math.log(sum(math.exp(x - top) for x in values))
                sums[group][name] += norm - values[truth]
    return {group: {k: (v if k == "n" else round(v / s["n"], 4)) for k, v in s.items()}
            for group, s in sorted(sums.items())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=OUT)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    records = read(args.corpus)
    out: dict[str, Any] = {}
    for ruleset in ("base", "saboteur2"):
        mine = [r for r in records if r["ruleset"] == ruleset]
        seeds = sorted({r["seed"] for r in mine})
        held = [r for r in mine if r["seed"] % HELD_OUT == 0]
        roles, weights = train([r for r in mine if r["seed"] % HELD_OUT], args.iterations)
        scores = losses(held, ruleset, roles, weights)
        print(f"{ruleset}: {len(mine)} moves of {len(seeds)} games, held out {len(held)}")
        for group, values in scores.items():
            print(f"  {group}: {values}")
        out[ruleset] = {"roles": roles, "weights": weights, "held_out_log_loss": scores,
                        "corpus": {"first_seed": seeds[0] if seeds else None,
                                   "games": len(seeds), "held_out": f"seed % {HELD_OUT} == 0",
                                   "iterations": args.iterations, "l2": L2}}
    if not args.no_write:
        MODEL.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
        print(f"written {MODEL}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
