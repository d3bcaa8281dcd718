"""Look-ahead by determinized rollouts: the strong bot's candidate moves (the normal
bot's best few, and the best of each other kind of move) are each played in the same
sampled worlds, then every seat plays on as the normal bot for one lap of turns (or
until the round ends; else the maze decides); the move whose worlds end best for the bot's side
on average is played.

The work is bounded in engine steps and in legal moves weighed (budget.py), not in
seconds, so the same inputs always give the same move: WORLDS x candidates x depth <=
STEPS, and no further world is played once the budget's work is spent (the wall clock
is only a safety net: past it, OutOfTime and the normal level's move).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass

from games.engine import IllegalMove, State, apply, legal_moves, view
from games.engine.cards import GOAL_CELLS
from games.engine.types import JSON, CardView, Move, SeatView

from ..context import AIMS, Context, build
from ..maze import Maze
from ..normal import choose_normal, score_all
from .belief import Belief, own_seat
from .budget import STEP_WORK, Meter
from .worlds import sample_world

WORLDS = 6
TOP = 3  # the normal bot's best moves always searched
CANDIDATES = 4  # at most, with the best move of another kind
STEPS = 240  # rollout steps per decision (about 0.4 s on this shared machine)
SURE = 40.0  # a move the normal bot prefers by this much (the gold) needs no search
NORMAL_BONUS = 0.04  # rollouts are noisy: the normal bot's choice wins near-ties


@dataclass
class Outcome:
    move: Move
    score: float
    value: float = 0.0


def candidates(view_: SeatView, moves: list[Move],
               bonus: Mapping[int, float] | None = None) -> list[Outcome]:
    """The moves worth searching, best normal score first (one per distinct effect).
    `bonus`: score points added to some moves' normal scores (by index in `moves`)."""
    ctx = build(view_)
    scores = score_all(ctx, moves)
    for index, points in (bonus or {}).items():
        scores[index] += points
    hand = {c["id"]: c for c in view_["hand"]}
    order = sorted(range(len(moves)), key=lambda i: -scores[i])
    chosen: list[Outcome] = []
    keys: set[str] = set()
    kinds: set[str] = set()
    for rank, i in enumerate(order):
        move = moves[i]
        key = effect_key(ctx, move, hand)
        kind = f"{move.get('type')}:{hand.get(move.get('card') or '', {}).get('action')}"
        if key in keys or (rank >= TOP and kind in kinds):
            continue
        keys.add(key)
        kinds.add(kind)
        chosen.append(Outcome(move, scores[i]))
        if len(chosen) >= CANDIDATES:
            break
    return chosen


def effect_key(ctx: Context, move: Move, hand: dict[str, CardView]) -> str:
    """Moves with the same effect (a symmetric card turned or not) share a key."""
    if move.get("type") == "place":
        card = hand[move.get("card") or ""]
        segs = ctx.segments(card, rotated=bool(move.get("rotated")))
        return json.dumps(["place", move["card"], move["x"], move["y"],
                           sorted(s.exits for s in segs)])
    return json.dumps(move, sort_keys=True)


def search(view_: SeatView, moves: list[Move], belief: Belief, rng: random.Random,
           meter: Meter) -> Move | None:
    """The best candidate by rollouts, or None when the normal choice stands. The worlds
    are played in turn, every candidate in each, until the meter's work is spent."""
    options = candidates(view_, moves)
    if len(options) < 2 or options[0].score - options[1].score >= SURE:
        return None
    me, role = own_seat(view_), str(view_.get("role"))
    # One lap of turns: every other seat answers the move once (and the bot again).
    depth = max(2, min(int(view_["seats"]) + 1, STEPS // (WORLDS * len(options))))
    worlds = [(sample_world(view_, belief, rng), rng.getrandbits(40)) for _ in range(WORLDS)]
    played = 0
    for world, seed in worlds:
        for option in options:
            option.value += rollout(world, option.move, seed, depth, me, role, meter)
        played += 1
        if meter.exhausted:
            break
    for option in options:
        option.value /= played
    options[0].value += NORMAL_BONUS
    best = max(options, key=lambda o: o.value)
    return best.move


def rollout(world: State, move: Move, seed: int, depth: int, me: int, role: str,
            meter: Meter) -> float:
    """Play `move`, then the normal bots, until the round ends or `depth` steps: the
    value of the end for `me` (1 a win, 0 a loss, between: how near the gold is)."""
    start = len(world.log)
    try:
        state = apply(world, move)
    except IllegalMove:
        return 0.5  # the world disagrees with the view: count the move as unknown
    for step in range(depth):
        end = round_end(state, start)
        if end is not None:
            return reward(end, me, role)
        moves = legal_moves(state)
        actor = state.actor
        if actor is None or not moves:
            break
        meter.charge(STEP_WORK + len(moves))
        state = apply(state, choose_normal(view(state, actor), moves, seed + step))
    end = round_end(state, start)
    return reward(end, me, role) if end is not None else estimate(state, me, role)


def round_end(state: State, start: int) -> JSON | None:
    for event in state.log[start:]:
        if event.get("type") == "round_end":
            return event
    return None


def reward(end: JSON, me: int, role: str) -> float:
    winning = end.get("winning_seats")
    if isinstance(winning, list):
        return 1.0 if me in winning else 0.0
    winners = str(end.get("winners"))
    return 1.0 if (winners == "gold-diggers") == (role != "saboteur") else 0.0


def estimate(state: State, me: int, role: str) -> float:
    """A round still going: the chance the diggers reach the gold, from how near the
    tunnel is to it (about a quarter less per step), for the seat's side."""
    seen = view(state, me)
    gold = [GOAL_CELLS[i] for i, k in enumerate(state.goal_kinds) if k == "gold"]
    team = {"blue-digger": "green", "green-digger": "blue"}.get(role)
    distance = Maze(seen, gold, team).distance
    cards = len(state.deck) + sum(len(h) for h in state.hands)
    near = 0.9 * 0.72 ** max(0, distance - 1) * (1.0 if cards >= 2 * distance else 0.5)
    return near if AIMS.get(role, "dig") == "dig" else 1.0 - near
