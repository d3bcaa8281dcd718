"""Determinized search over worlds drawn from the joint belief (joint.py): each
candidate move (search.py's: the normal bot's best few and the best of another kind)
is played in the same worlds, each world a whole hypothesis (every seat's role and the
gold's goal) drawn from the posterior; every other seat answers once with a move drawn
from its role's policy (the normal bot's scores softened by POLICY_TEMPERATURE) and the
bot plays its second ply as the normal bot would. The leaf is scored by a heuristic,
not played out to the round's end (random playouts give no signal in this game): how
near the open tunnel is to each goal weighted by the gold posterior, how many ways it
can grow (the frontier), the tools broken on each side, the cards left to dig with.

A saboteur's move then pays for how much it raises the public's posterior that it is a
saboteur, a digger's map or inspection earns the bits it reveals (signals.py). The work
is the same counted budget as search.py's (budget.py), so the same inputs give the
same move.
"""

from __future__ import annotations

import math
import random
import statistics

from games.engine import IllegalMove, State, apply, legal_moves, view
from games.engine.cards import GOAL_CELLS
from games.engine.types import Move, SeatView

from ..context import AIMS, build
from ..knowledge import catalogue
from ..maze import Maze
from ..normal import choose_normal, score_all
from .belief import Belief, own_seat
from .budget import STEP_WORK, Meter
from .joint import Joint
from .search import NORMAL_BONUS, STEPS, SURE, WORLDS, candidates, reward, round_end
from .signals import exposure, public_saboteur, revealed
from .team import line_uncertainty, map_bonus
from .worlds import sample_world

# Score points, measured by bench/bot_temperature.py: the normal bots play their argmax,
# so the smallest temperature tried fits self-play best (ties of equal-effect moves keep
# it from going to 0). A table of people would measure higher.
POLICY_TEMPERATURE = 0.25
# Value lost per unit of public suspicion a saboteur's move adds (0.3 lost 7 points of
# saboteur wins against the rollouts in the first duplicate deals; not tuned further).
BLUFF = 0.15
INFO = 0.05  # value per bit a digger's map or inspection reveals
NEAR = 0.72  # a step further from a goal: about a quarter less chance to reach it
BROKEN = 0.35  # a side all of whose seats have a broken tool digs this much less
HURT = frozenset({"break", "trapped"})  # cards in front that stop a seat digging
TEAMS = {"blue-digger": "green", "green-digger": "blue"}  # the door colour that blocks


def plan(view_: SeatView, moves: list[Move], joint: Joint | None, belief: Belief,
         rng: random.Random, meter: Meter, *, team: bool = False,
         lead: float = 0.0) -> Move | None:
    """The best candidate by look-ahead over sampled hypotheses, or None when the
    normal choice stands (one candidate, or one far ahead). `team`: a digger plays for
    its side too (team.py): maps are ranked by what the bot and its side learn, and
    each line pays for what they still do not know of the gold. `lead`: another
    candidate than the first (the normal choice, with team play's bonus) is played only
    when it leads it by at least this many standard errors of their world-by-world
    differences (0: any lead)."""
    me, role = own_seat(view_), str(view_.get("role"))
    gold = joint.gold() if joint is not None else open_goals(view_)
    team = team and AIMS.get(role) == "dig"
    options = candidates(view_, moves, map_bonus(view_, moves, joint, gold) if team else None)
    if len(options) < 2 or options[0].score - options[1].score >= SURE:
        return None
    depth = max(2, min(int(view_["seats"]) + 1, STEPS // (WORLDS * len(options))))
    worlds = [(sample_world(view_, belief, rng, joint.sample(rng) if joint else None),
               rng.getrandbits(40)) for _ in range(WORLDS)]
    lines: list[list[float]] = [[] for _ in options]  # each option's value per world
    for world, seed in worlds:
        for option, values in zip(options, lines, strict=True):
            values.append(reply(world, option.move, seed, depth, (me, role), gold, meter,
                                team=team))
        if meter.exhausted:
            break
    before = public_saboteur(view_, me) if role == "saboteur" else 0.0
    for option, values in zip(options, lines, strict=True):
        option.value = sum(values) / len(values)
        if role == "saboteur":
            option.value -= BLUFF * exposure(view_, option.move, me, before)
        elif AIMS.get(role) == "dig" and not (team and option.move.get("type") == "map"):
            # With team play a map's worth is in the lines' uncertainty instead.
            option.value += INFO * revealed(view_, option.move, gold,
                                            dict(enumerate(belief.probs)))
    options[0].value += NORMAL_BONUS
    best = max(range(len(options)), key=lambda i: options[i].value)
    if best and lead and not clear_lead(options[best].value - options[0].value,
                                        lines[best], lines[0], lead):
        best = 0
    return options[best].move


def clear_lead(margin: float, mine: list[float], normal: list[float], errors: float) -> bool:
    """Whether a candidate `margin` ahead of the normal choice in the mean is ahead by
    `errors` standard errors of the two lines' differences world by world (the same
    worlds and answers for both: a paired comparison). A line's value swings from 0 to 1
    between worlds, so with a handful of worlds most leads are within the noise."""
    differences = [a - b for a, b in zip(mine, normal, strict=True)]
    if len(differences) < 2:
        return False
    spread = statistics.stdev(differences)
    return margin > 0 and margin >= errors * spread / math.sqrt(len(differences))


def open_goals(view_: SeatView) -> list[float]:
    """The gold's place as the view alone says (where no joint belief is kept)."""
    status = [str(g["status"]) for g in view_["goals"]]
    if "gold" in status:
        return [float(s == "gold") for s in status]
    live = [float(s != "stone") for s in status]
    return [v / max(1.0, sum(live)) for v in live]


def reply(world: State, move: Move, seed: int, depth: int, who: tuple[int, str],
          gold: list[float], meter: Meter, *, team: bool = False) -> float:
    """Play `move`, then one answer from each seat (drawn from its role's policy) and
    the bot's own second ply, up to `depth` steps: 1 or 0 if the round ended, else the
    leaf's heuristic value for the bot's side. `team`: less INFO per bit the bot and its
    side (by this world's roles) still lack about the gold at the end of the line."""
    value, state = line(world, move, seed, depth, who, gold, meter)
    if not team:
        return value
    me, role = who
    return value - INFO * line_uncertainty(state, me, role, gold)


def line(world: State, move: Move, seed: int, depth: int, who: tuple[int, str],
         gold: list[float], meter: Meter) -> tuple[float, State]:
    """`reply`'s line played out: its value for the bot's side and the last state."""
    me, role = who
    start = len(world.log)
    try:
        state = apply(world, move)
    except IllegalMove:
        return 0.5, world  # the world disagrees with the view: count the move as unknown
    rng = random.Random(seed)
    for step in range(depth):
        if round_end(state, start) is not None:
            break
        moves = legal_moves(state)
        actor = state.actor
        if actor is None or not moves:
            break
        meter.charge(STEP_WORK + len(moves))
        seen = view(state, actor)
        if actor == me or state.phase != "play" or len(moves) == 1:
            choice = choose_normal(seen, moves, seed + step)
        else:
            choice = drawn(moves, score_all(build(seen), moves), rng)
        state = apply(state, choice)
    end = round_end(state, start)
    if end is not None:
        return reward(end, me, role), state
    meter.charge(STEP_WORK)
    return leaf(state, me, role, gold), state


def drawn(moves: list[Move], scores: list[float], rng: random.Random) -> Move:
    """A move drawn with probability proportional to exp(score / POLICY_TEMPERATURE)."""
    top = max(scores)
    weights = [math.exp((s - top) / POLICY_TEMPERATURE) for s in scores]
    pick = rng.random() * sum(weights)
    for move, weight in zip(moves, weights, strict=True):
        pick -= weight
        if pick <= 0:
            return move
    return moves[-1]


def leaf(state: State, me: int, role: str, gold: list[float]) -> float:
    """The chance the diggers (the bot's team, for a team digger) reach the gold from
    here, for the bot's side: 1 minus it for a saboteur."""
    seen = view(state, me)
    maze = Maze(seen, [GOAL_CELLS[g] for g in range(len(gold))], TEAMS.get(role))
    reach = sum(p * goal_chance(maze, GOAL_CELLS[g]) for g, p in enumerate(gold)
                if p > 0 and not state.goal_revealed[g])
    reach += sum(p for g, p in enumerate(gold) if state.goal_revealed[g]
                 and state.goal_kinds[g] == "gold")
    cards = len(state.deck) + sum(len(h) for h in state.hands)
    short = 1.0 if cards >= 2 * max(1, maze.distance) else 0.5
    growth = 0.85 + 0.15 * min(1.0, len(maze.frontier) / 4)
    diggers = [s for s, r in enumerate(state.roles) if AIMS.get(r) == "dig"]
    blockers = [s for s, r in enumerate(state.roles) if AIMS.get(r) == "block"]
    chance = reach * short * growth * (1.0 - BROKEN * broken_share(state, diggers)) \
        * (1.0 + 0.5 * BROKEN * broken_share(state, blockers))
    chance = max(0.0, min(1.0, chance))
    return chance if AIMS.get(role, "dig") == "dig" else 1.0 - chance


def goal_chance(maze: Maze, goal: tuple[int, int]) -> float:
    """How likely a tunnel this far from `goal` gets there: 0.9 next to it, about a
    quarter less a step further."""
    distance = min((abs(x - goal[0]) + abs(y - goal[1]) for x, y in maze.frontier),
                   default=99)
    return 0.9 * NEAR ** max(0, distance - 1)


def broken_share(state: State, seats: list[int]) -> float:
    """The share of `seats` with a broken tool (or trapped) in front of them."""
    if not seats:
        return 0.0
    cards = catalogue(state.ruleset)
    hurt = sum(any(cards[c].action in HURT for c in state.in_front[s] if c in cards)
               for s in seats)
    return hurt / len(seats)
