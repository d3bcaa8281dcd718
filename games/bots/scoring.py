"""How much a bot likes each legal move. Scores share one scale: about 10 for carrying
the tunnel a step nearer the gold, 12 for mending your own pickaxe, 0 for a move that
changes nothing; passing a card is worth what the card is not.
"""

from __future__ import annotations

from games.engine.types import CardView, Move

from .context import Context
from .maze import is_dead_end

STEP = 6.0  # score per doubling of the maze's progress value


def usefulness(ctx: Context, card: CardView) -> float:
    """What keeping `card` in hand is worth to this role (passing it costs this)."""
    key = str(card["id"])
    if key not in ctx.kept:
        ctx.kept[key] = _usefulness(ctx, card)
    return ctx.kept[key]


def _usefulness(ctx: Context, card: CardView) -> float:
    action = card.get("action")
    if card["kind"] == "path":
        segs = ctx.segments(card, rotated=False)
        crystals = float(card.get("crystals", 0))
        if ctx.aim == "crystal":
            return 2.0 * crystals if crystals else -0.5
        if ctx.aim == "block":
            return 1.5 if is_dead_end(segs) or any(len(s) == 1 for s in card["segments"]) \
                else 0.2
        if is_dead_end(segs):
            return -0.5
        door = card.get("door")
        if door and door != ctx.team:
            return -0.5
        return 0.6 + 0.3 * bin(max(s.exits for s in segs)).count("1") + (0.8 if door else 0)
    values = {"break": 1.2, "repair": 1.5, "rockfall": 1.0, "map": 1.2, "theft": 1.5,
              "trapped": 1.2, "free_at_last": 1.2, "hands_off": 0.4, "inspection": 0.4,
              "swap_hats": 0.1, "swap_hand": -0.2}
    value = values.get(str(action), 0.0)
    if action == "map" and ctx.gold_known:
        value = -0.5
    if action == "rockfall" and ctx.aim == "block":
        value = 1.8
    return value


def score_place(ctx: Context, move: Move, card: CardView) -> float:
    segs = ctx.segments(card, rotated=bool(move.get("rotated")))
    cell = (move["x"], move["y"])
    maze = ctx.maze
    after, hit = maze.after_place(cell, segs)
    gain = maze.gain(after)
    crystals = float(card.get("crystals", 0))
    door = card.get("door")
    if ctx.aim == "dig":
        score = STEP * gain - 0.3
        if hit:
            score += 100.0 if ctx.gold_known else 30.0 / max(1, len(ctx.targets))
        if door and door == ctx.team and cell in _route_cells(ctx):
            score += 3.0  # one's own door on the way shuts the other team out
        return score
    if ctx.aim == "block":
        score = -STEP * gain * (0.5 if ctx.early() else 1.0) - 0.3
        if hit:
            score -= 100.0
        if ctx.early() and is_dead_end(segs):
            score -= 1.0  # a dead end this early gives a saboteur away
        return score
    # The geologist: crystals on the table, and no hurry to end the round.
    return 3.0 * crystals - (50.0 if hit else 0.0) - 0.5


def _route_cells(ctx: Context) -> set[tuple[int, int]]:
    """Frontier cells no further from the targets than the best one plus one."""
    maze = ctx.maze
    return {c for c in maze.frontier if maze.dist(c) <= maze.distance + 1}


def score_rockfall(ctx: Context, move: Move, cache: dict[tuple[int, int], float]) -> float:
    cell = (move["x"], move["y"])
    if cell not in cache:
        cache[cell] = ctx.maze.gain(ctx.maze.after_removal(cell))
    gain = cache[cell]
    if ctx.aim == "dig":
        return STEP * gain - 1.5
    if ctx.aim == "block":
        return -STEP * gain * (0.6 if ctx.early() else 1.0) - 1.5
    return -2.0


def score_map(ctx: Context, move: Move) -> float:
    if ctx.gold_known:
        return -2.0
    goal = ctx.view["goals"][move["goal"]]
    at = (goal["x"], goal["y"])
    if at not in ctx.targets:
        return -2.0
    # Look where the tunnel is heading: the goal nearest the frontier matters first.
    nearest = min((abs(c[0] - at[0]) + abs(c[1] - at[1]) for c in ctx.maze.frontier),
                  default=9)
    base = 8.0 if ctx.aim == "dig" else 5.0 if ctx.aim == "block" else 0.5
    return base - 0.2 * nearest


def score_tool(ctx: Context, move: Move, card: CardView) -> float:
    """Break or repair a tool."""
    target = int(move["target"])
    hostility = ctx.hostility(target)
    broken = ctx.know.broken[target]
    stopped = bool(broken) or ctx.know.trapped[target]
    if card.get("action") == "repair":
        if target == ctx.me:
            useful = len(broken) == 1  # the last broken tool: now one can dig again
            return (12.0 if ctx.aim != "crystal" else 3.0) if useful else 4.0
        return -6.0 * hostility * (1.0 if len(broken) == 1 else 0.5)
    if target == ctx.me:
        return -20.0
    if hostility <= 0:
        return -4.0 + 4.0 * hostility
    urgency = 1.0 if ctx.maze.distance <= 4 else 0.7
    score = (2.0 + 8.0 * hostility) * urgency * (0.3 if stopped else 1.0)
    if ctx.aim == "block" and ctx.early():
        score -= 2.0
    return score


def score_pass(ctx: Context, move: Move, hand: dict[str, CardView]) -> float:
    ids = move.get("cards")
    if ids is None:
        card = move.get("card")
        ids = [] if card is None else [card]
    if not ids:
        return 0.0
    total = 0.0
    for card_id in ids:
        total += 0.5 - usefulness(ctx, hand[card_id])
    # Saboteur 2: drawing more cards is worth a little, but three junk cards beat one.
    return total - 0.2 * (len(ids) - 1)
