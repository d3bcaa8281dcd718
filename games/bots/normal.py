"""The normal bot level: every legal move gets a score, the best one is played.

    choose_normal(view, legal_moves, seed) -> one of legal_moves

A bot sees only its seat's view (`games.engine.view(state, seat)`), so it cannot cheat
by construction; the same view, moves and seed always give the same move. Every legal
move gets a score (games/bots/scoring.py, s2.py) from the bot's role, the maze and what
the public log says about the other players; the best one is played, ties broken by a
local random generator seeded from `seed`.
"""

from __future__ import annotations

import random

from .context import Context, build
from .s2 import score_free, score_s2_action, score_steal
from .scoring import score_map, score_pass, score_place, score_rockfall, score_tool

__all__ = ["choose_normal", "score_all"]

from games.engine.types import CardView, Move, SeatView


def choose_normal(view: SeatView, legal_moves: list[Move], seed: int) -> Move:
    """The move this seat's bot plays: always an element of `legal_moves`."""
    if not legal_moves:
        raise ValueError("there is no legal move to choose from")
    rng = random.Random(seed)
    if len(legal_moves) == 1:
        return legal_moves[0]
    phase = view.get("phase")
    if phase == "gold":
        values = {g["id"]: g["value"] for g in view.get("gold_offer") or []}
        return _best(rng, legal_moves,
                     [float(values.get(m.get("card") or "", 0)) for m in legal_moves])
    ctx = build(view)
    if phase == "theft":
        return _best(rng, legal_moves, [score_steal(ctx, m) for m in legal_moves])
    return _best(rng, legal_moves, score_all(ctx, legal_moves))


def score_all(ctx: Context, moves: list[Move]) -> list[float]:
    hand = {c["id"]: c for c in ctx.view["hand"]}
    rockfalls: dict[tuple[int, int], float] = {}
    scores = []
    for move in moves:
        kind = move.get("type")
        card: CardView = hand.get(move.get("card") or "", {})
        if kind == "place":
            scores.append(score_place(ctx, move, card))
        elif kind == "rockfall":
            scores.append(score_rockfall(ctx, move, rockfalls))
        elif kind == "map":
            scores.append(score_map(ctx, move))
        elif kind == "action" and card.get("action") in ("break", "repair"):
            scores.append(score_tool(ctx, move, card))
        elif kind == "action":
            scores.append(score_s2_action(ctx, move, card))
        elif kind == "free":
            scores.append(score_free(ctx, move, hand))
        elif kind == "pass":
            scores.append(score_pass(ctx, move, hand))
        else:
            scores.append(-50.0)  # a move type this bot does not know: last resort
    return scores


def _best(rng: random.Random, moves: list[Move], scores: list[float]) -> Move:
    top = max(scores)
    best = [m for m, s in zip(moves, scores, strict=True) if s >= top - 1e-9]
    return best[rng.randrange(len(best))]
