"""The maze as a bot reads it from a seat view: tunnels, the frontier, and how close the
tunnels are to the goals a bot still aims at.

Progress is one number, `value`: the sum over frontier cells (empty cells a tunnel from
the start runs into) of CLOSENESS ** distance-to-the-nearest-target-goal. A card that
carries the tunnel one step nearer a goal multiplies it by about 1 / CLOSENESS; a dead end
that closes the only good branch divides it. Diggers raise it, saboteurs lower it.
Everything here works on the view's JSON only (exits and segments after rotation).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from games.engine.types import CardView, SeatView

N, E, S, W = 1, 2, 4, 8
DIRECTIONS = (N, E, S, W)
BY_NAME = {"N": N, "E": E, "S": S, "W": W}
OPPOSITE = {N: S, S: N, E: W, W: E}
DELTA = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
CLOSENESS = 0.3
GOAL_HIT = 1.0  # weight of a tunnel running into a target goal (distance 0)

Cell = tuple[int, int]


@dataclass(frozen=True)
class Seg:
    """One tunnel system inside a card: its exits, door colour and ladder flag."""

    exits: int
    door: str | None = None
    ladder: bool = False


def mask(names: Sequence[str]) -> int:
    out = 0
    for name in names:
        out |= BY_NAME[name]
    return out


def rotate(exits: int) -> int:
    return ((exits << 2) | (exits >> 2)) & 15


def neighbour(cell: Cell, direction: int) -> Cell:
    dx, dy = DELTA[direction]
    return (cell[0] + dx, cell[1] + dy)


def bits(exits: int) -> Iterator[int]:
    for d in DIRECTIONS:
        if exits & d:
            yield d


def card_segments(card: CardView, *, rotated: bool = False) -> tuple[Seg, ...]:
    """Segments of a card JSON (board cards are already turned; hand cards are not)."""
    doors = {mask(s) for s in card.get("door_segments", ())}
    ladder = bool(card.get("ladder"))
    segs = []
    for names in card.get("segments", ()):
        exits = mask(names)
        door = card.get("door") if exits in doors else None
        segs.append(Seg(rotate(exits) if rotated else exits, door, ladder))
    return tuple(segs)


def is_dead_end(segs: Sequence[Seg]) -> bool:
    return all(bin(s.exits).count("1") < 2 and not s.ladder for s in segs)


class Maze:
    """The board of a view, seen by a bot that aims at `targets` (goal cells) and may
    not pass doors of colour `blocked` (a team digger counts only routes open to it)."""

    def __init__(self, view: SeatView, targets: Sequence[Cell], blocked: str | None = None) -> None:
        self.cells: dict[Cell, tuple[Seg, ...]] = {}
        self.hidden: set[Cell] = set()
        self.start: Cell = (0, 0)
        for cell in view["board"]:
            at = (cell["x"], cell["y"])
            card = cell["card"]
            if card.get("goal") is not None and not card.get("revealed", True):
                self.hidden.add(at)
                continue
            if card["kind"] == "start":
                self.start = at
            self.cells[at] = card_segments(card)
        self.targets = tuple(targets)
        self.blocked = blocked
        self._weights: dict[Cell, float] = {}
        self._live: dict[Cell, int] = {}
        self.reach = self._reach()
        self.frontier = self._frontier()
        self.value = sum(self.weight(c) for c in self.frontier)
        self.distance = min((self.dist(c) for c in self.frontier), default=99)

    # ---- distances ------------------------------------------------------------
    def dist(self, cell: Cell) -> int:
        if not self.targets:
            return 99
        return min(abs(cell[0] - x) + abs(cell[1] - y) for x, y in self.targets)

    def weight(self, cell: Cell) -> float:
        known = self._weights.get(cell)
        if known is None:
            if cell in self.hidden:
                known = GOAL_HIT if cell in self.targets else 0.0
            else:
                known = float(CLOSENESS ** min(self.dist(cell), 30))
            self._weights[cell] = known
        return known

    def live(self, cell: Cell) -> int:
        """Edges of an empty `cell` that a tunnel from the start runs into."""
        known = self._live.get(cell)
        if known is None:
            known = 0
            for d in DIRECTIONS:
                if self.reach.get(neighbour(cell, d), 0) & OPPOSITE[d]:
                    known |= d
            self._live[cell] = known
        return known

    def passable(self, seg: Seg) -> bool:
        return self.blocked is None or seg.door != self.blocked

    # ---- connectivity ---------------------------------------------------------
    def _reach(self, cells: dict[Cell, tuple[Seg, ...]] | None = None) -> dict[Cell, int]:
        """Cell -> mask of exits whose tunnel joins the start (or a ladder)."""
        cells = self.cells if cells is None else cells
        queue: deque[tuple[Cell, int]] = deque()
        seen: set[tuple[Cell, int]] = set()
        for cell, segs in cells.items():
            for i, seg in enumerate(segs):
                if (cell == self.start or seg.ladder) and self.passable(seg):
                    seen.add((cell, i))
                    queue.append((cell, i))
        reach: dict[Cell, int] = {}
        while queue:
            cell, i = queue.popleft()
            seg = cells[cell][i]
            reach[cell] = reach.get(cell, 0) | seg.exits
            for d in bits(seg.exits):
                other = neighbour(cell, d)
                for j, oseg in enumerate(cells.get(other, ())):
                    if oseg.exits & OPPOSITE[d] and (other, j) not in seen and self.passable(oseg):
                        seen.add((other, j))
                        queue.append((other, j))
        return reach

    def _frontier(self, cells: dict[Cell, tuple[Seg, ...]] | None = None,
                  reach: dict[Cell, int] | None = None) -> set[Cell]:
        cells = self.cells if cells is None else cells
        reach = self.reach if reach is None else reach
        out: set[Cell] = set()
        for cell, exits in reach.items():
            for d in bits(exits):
                other = neighbour(cell, d)
                if other not in cells:
                    out.add(other)
        return out

    # ---- what a move would do -----------------------------------------------
    def after_place(self, cell: Cell, segs: Sequence[Seg]) -> tuple[float, bool]:
        """(value after placing `segs` at `cell`, whether a target goal is reached).
        Incremental: cards the new one might join up that were cut off are ignored."""
        value = self.value - (self.weight(cell) if cell in self.frontier else 0.0)
        reached = 0
        live = self.live(cell)
        for seg in segs:
            if (seg.ladder or seg.exits & live) and self.passable(seg):
                reached |= seg.exits
        hit = False
        added: set[Cell] = set()
        for d in bits(reached):
            other = neighbour(cell, d)
            if other in self.hidden:
                hit = hit or other in self.targets
                value += self.weight(other)
            elif other not in self.cells and other not in self.frontier and other not in added:
                added.add(other)
                value += self.weight(other)
        return value, hit

    def after_removal(self, cell: Cell) -> float:
        """Value after a rockfall on `cell` (a full recount: a cut may strand branches)."""
        cells = {c: s for c, s in self.cells.items() if c != cell}
        reach = self._reach(cells)
        return sum(self.weight(c) for c in self._frontier(cells, reach))

    def gain(self, after: float) -> float:
        """log2 of the change in progress, clipped: +1.7 is one step nearer a goal."""
        before = self.value + 1e-4
        return max(-5.0, min(5.0, math.log2((after + 1e-4) / before)))

    def on_route(self, cell: Cell) -> bool:
        """A cell the tunnel to the targets passes (reached and not further than the
        frontier's best), e.g. where a rockfall hurts most."""
        return cell in self.reach
