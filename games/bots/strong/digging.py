"""How a move in the round's log changed the way to each goal: the maze is rebuilt
from the start and goal cards by replaying the log's placements and rockfalls, and for
every placement or rockfall the distance from the open tunnel (the frontier) to each
goal is read before and after it. A move that brings the tunnel nearer a goal the
mover could believe holds the gold is a digger's; one that takes it further, or cuts
it, a saboteur's. Only the public log and the view's start and goal cells are read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from games.engine import card_json
from games.engine.cards import GOAL_CELLS
from games.engine.types import CardView, SeatView

from ..knowledge import catalogue
from ..maze import Maze

FAR = 12  # a distance cap: no tunnel yet counts as this far
Deltas = tuple[int, ...]  # per goal: steps nearer (negative: further) after the move


def fixed_cells(view: SeatView) -> list[dict[str, Any]]:
    """The start and the goals, as the maze stood before the round's first move."""
    return [dict(cell) for cell in view["board"]
            if cell["card"].get("kind") in ("start", "goal")]


def distances(cells: Mapping[tuple[int, int], CardView]) -> tuple[int, ...]:
    """Per goal, the fewest steps from the frontier to it (goals counted hidden)."""
    board = [{"x": x, "y": y, "card": {**card, "revealed": False}
              if card.get("kind") == "goal" else card} for (x, y), card in cells.items()]
    maze = Maze({"board": board}, [])  # type: ignore[typeddict-item]
    return tuple(min((abs(x - gx) + abs(y - gy) for x, y in maze.frontier), default=FAR)
                 for gx, gy in GOAL_CELLS)


def deltas(log: Iterable[Mapping[str, Any]], fixed: list[dict[str, Any]],
           ruleset: str) -> list[Deltas | None]:
    """For each event of the round's log, how many steps nearer each goal it brought
    the frontier (None: not a placement or rockfall)."""
    events = list(log)
    return list(_deltas(tuple(_board_events(events)), tuple(
        (int(c["x"]), int(c["y"]), str(c["card"].get("id")), str(c["card"].get("kind")))
        for c in fixed), ruleset, len(events)))


BoardEvent = tuple[int, str, int, int, str, bool]  # index, kind, x, y, card, rotated


def _board_events(log: Iterable[Mapping[str, Any]]) -> Iterable[BoardEvent]:
    for index, event in enumerate(log):
        kind = event.get("type")
        if kind in ("place", "rockfall"):
            yield (index, str(kind), int(event.get("x", 0)), int(event.get("y", 0)),
                   str(event.get("card")), bool(event.get("rotated")))


@lru_cache(maxsize=64)
def _deltas(events: tuple[BoardEvent, ...],
            fixed: tuple[tuple[int, int, str, str], ...], ruleset: str,
            length: int) -> tuple[Deltas | None, ...]:
    cards = catalogue(ruleset)
    cells: dict[tuple[int, int], CardView] = {}
    for x, y, card, kind in fixed:
        spec = cards.get(card)
        cells[(x, y)] = card_json(spec) if spec is not None and kind == "start" else \
            {"id": card, "kind": kind, "goal": "hidden"}
    out: list[Deltas | None] = [None] * length
    before = distances(cells)
    for index, kind, x, y, card, rotated in events:
        if kind == "place":
            spec = cards.get(card)
            if spec is None:
                continue
            cells[(x, y)] = card_json(spec, rotated)
        else:
            cells.pop((x, y), None)
        after = distances(cells)
        out[index] = tuple(b - a for b, a in zip(before, after, strict=True))
        before = after
    return tuple(out)


def actor_gold(mapped: Iterable[int], gold: int, goals: int = 3) -> list[float]:
    """What a seat that mapped `mapped` could believe of the gold's place, were it
    under `gold`: certain if it mapped that goal, else spread over those it did not."""
    seen = set(mapped)
    if gold in seen:
        return [float(g == gold) for g in range(goals)]
    open_ = [g for g in range(goals) if g not in seen] or list(range(goals))
    return [1.0 / len(open_) if g in open_ else 0.0 for g in range(goals)]


def toward(moved: Deltas, belief: list[float]) -> float:
    """Steps nearer the gold as the mover believed it (negative: further)."""
    return sum(p * d for p, d in zip(belief, moved, strict=False))
