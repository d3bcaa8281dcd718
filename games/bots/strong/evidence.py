"""The learned evidence model: how likely a public move is for each role, given what
the mover could have believed of the gold's place. A multinomial logistic regression
over the actor's role, trained offline on a self-play corpus (bench/bot_corpus.py
writes it, bench/bot_model.py trains and writes evidence_model.json, committed with the
corpus's seeds); the bot only reads the weights, in pure Python.

A move's features: its kind and lap (the likelihood table's key, one-hot), and for a
placement or rockfall how many steps it brought the tunnel nearer the gold as the mover
could believe it (`digging.toward`: spread over the goals it had not mapped, certain if
it had mapped the gold), also split by whether the mover had mapped the gold or a
stone and by dead ends and rockfalls, whether it changed no distance at all, and for a
map whether the mover had already seen the gold or a stone. The model is trained with
the role's share of the dwarf cards as a fixed offset, so exp(w_role . x) is
proportional to P(move | role): the factor a hypothesis is weighed by, for each place
the gold may lie.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from .digging import Deltas, actor_gold, toward

MODEL = Path(__file__).with_name("evidence_model.json")
CLIP = 3.0  # steps: a move's distance change counts at most this much


def features(key: str, moved: Sequence[int] | None, mapped: Sequence[int],
             gold: int) -> dict[str, float]:
    """The model's features of one move (see the module's docstring)."""
    out = {f"k:{key}": 1.0}
    sure = gold in mapped
    if moved is not None:
        steps = max(-CLIP, min(CLIP, toward(tuple(moved), actor_gold(mapped, gold))))
        out["toward"] = steps
        kind = key.split(":")[0]
        if kind.startswith("place_dead"):
            out["toward_dead"] = steps
        elif kind.startswith("rockfall"):
            out["toward_rockfall"] = steps
        if sure:
            out["toward_sure"] = steps
        elif mapped:
            out["toward_stone"] = steps
        if not any(moved):
            out["still"] = 1.0
    elif key.startswith("map:") and mapped:
        out["remap_after_gold" if sure else "remap_after_stone"] = 1.0
    return out


@lru_cache(maxsize=1)
def model() -> dict[str, Any]:
    """The committed weights ({} before bench/bot_model.py has run)."""
    if not MODEL.exists():
        return {}
    data: dict[str, Any] = json.loads(MODEL.read_text())
    return data


def factors(ruleset: str, roles: Sequence[str], key: str, moved: Deltas | None,
            mapped: Sequence[int], goals: int = 3) -> list[list[float]] | None:
    """`[role][gold]`: a number proportional to P(this move | role, the gold there),
    for `roles` in their order; None when no model is committed for `ruleset`."""
    learned = model().get(ruleset)
    if not learned:
        return None
    weights: dict[str, dict[str, float]] = learned["weights"]
    out = []
    for role in roles:
        row = weights.get(role, {})
        out.append([math.exp(max(-30.0, min(30.0, sum(
            row.get(name, 0.0) * value for name, value
            in features(key, moved, mapped, gold).items())))) for gold in range(goals)])
    return out
