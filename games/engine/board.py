"""The maze: which tunnels reach the start, where a card may go, which goals turn over.

A `Maze` is built from a state's board and the ruleset's card catalogue. Connectivity
is a breadth-first search over *segments* (one node per tunnel system inside a card),
so dead ends, bridges, double curves, ladders and doors need no special geometry.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass

from .cards import GOAL_CELLS, GOAL_CONTENTS, CardSpec, Segment
from .errors import IllegalMove
from .geometry import DELTA, DIRECTIONS, OPPOSITE, WORDS, Cell, bits, neighbour
from .state import State

Node = tuple[Cell, int]  # (cell, segment index)


@dataclass(frozen=True)
class Placed:
    card: CardSpec
    rotated: bool
    segments: tuple[Segment, ...]
    exits: int
    hidden: bool  # a face-down goal: no known shape, no agreement needed
    goal: int | None  # goal index for goal positions


@dataclass(frozen=True)
class Slot:
    """An empty cell next to the maze and what its neighbours demand of a card there.

    A card with exits `x` fits the edges iff `x & must == need`; it touches the start's
    tunnels iff `x & live` (RULES.md: a dead-end exit meeting such a tunnel counts).
    """

    cell: Cell
    must: int  # edges facing a face-up card: tunnel must meet tunnel, wall meet wall
    need: int  # edges where that neighbour has a tunnel
    live: int  # edges where that tunnel is connected to the start
    near_goal: bool  # shares an edge with a goal card (face down or not)


# Each direction's (bit, dx, dy, opposite bit), for the hot loops below.
STEPS: tuple[tuple[int, int, int, int], ...] = tuple(
    (d, DELTA[d][0], DELTA[d][1], OPPOSITE[d]) for d in DIRECTIONS)
_GOAL_INDEX: dict[Cell, int] = {cell: i for i, cell in enumerate(GOAL_CELLS)}
_GOAL_SET: frozenset[Cell] = frozenset(GOAL_CELLS)
# A face-up card as the maze reads it, made once per card and side (keyed by the spec
# object itself: a catalogue's specs live as long as the process).
_PLACED: dict[tuple[int, bool, bool], tuple[CardSpec, Placed]] = {}


def _placed(spec: CardSpec, rotated: bool, hidden: bool, index: int | None) -> Placed:
    if index is not None:  # goals: few, and they carry their index
        if hidden:
            return Placed(spec, False, (), 0, True, index)
        return Placed(spec, rotated, spec.oriented(rotated), spec.oriented_exits(rotated),
                      False, index)
    key = (id(spec), rotated, hidden)
    found = _PLACED.get(key)
    if found is not None and found[0] is spec:
        return found[1]
    placed = Placed(spec, rotated, spec.oriented(rotated), spec.oriented_exits(rotated),
                    False, None)
    _PLACED[key] = (spec, placed)
    return placed


class Maze:
    def __init__(self, state: State, cards: Mapping[str, CardSpec]) -> None:
        self.cells: dict[Cell, Placed] = {}
        for cell, (card_id, rotated) in state.board.items():
            index = _GOAL_INDEX.get(cell)
            if index is not None and card_id.startswith("goal-"):
                spec = GOAL_CONTENTS[state.goal_kinds[index]]
                self.cells[cell] = _placed(spec, rotated, not state.goal_revealed[index],
                                           index)
            else:
                self.cells[cell] = _placed(cards[card_id], rotated, False, None)
        self._reach: dict[Cell, int] | None = None
        self._slots: list[Slot] | None = None

    # ---- connectivity --------------------------------------------------------
    def reached_nodes(self, passable: Callable[[Segment], bool] | None = None) -> set[Node]:
        """Segments joined to the start card (or to a ladder) by unbroken tunnels."""
        cells = self.cells
        sources: list[Node] = []
        for cell, placed in cells.items():
            start = placed.card.kind == "start"
            for i, segment in enumerate(placed.segments):
                if start or segment.ladder:
                    sources.append((cell, i))
        if passable is not None:
            sources = [n for n in sources if passable(cells[n[0]].segments[n[1]])]
        seen: set[Node] = set(sources)
        queue: deque[Node] = deque(sources)
        while queue:
            node = queue.popleft()
            (x, y), index = node
            exits = cells[node[0]].segments[index].exits
            for direction, dx, dy, back in STEPS:
                if not exits & direction:
                    continue
                other = (x + dx, y + dy)
                there = cells.get(other)
                if there is None:
                    continue
                j = next((i for i, seg in enumerate(there.segments) if seg.exits & back), -1)
                if j < 0 or (other, j) in seen:
                    continue
                if passable is not None and not passable(there.segments[j]):
                    continue
                seen.add((other, j))
                queue.append((other, j))
        return seen

    def reach(self) -> dict[Cell, int]:
        """For each cell, the mask of its exits whose tunnel reaches the start."""
        if self._reach is None:
            masks: dict[Cell, int] = {}
            for cell, index in self.reached_nodes():
                masks[cell] = masks.get(cell, 0) | self.cells[cell].segments[index].exits
            self._reach = masks
        return self._reach

    def arriving(self, cell: Cell) -> int:
        """Edges of `cell` into which a tunnel from the start runs."""
        reach = self.reach()
        mask = 0
        for direction in DIRECTIONS:
            if reach.get(neighbour(cell, direction), 0) & OPPOSITE[direction]:
                mask |= direction
        return mask

    # ---- placement -----------------------------------------------------------
    def slots(self) -> list[Slot]:
        """Every empty cell sharing an edge with a card on the table (made once per maze:
        a state's moves that leave the board alone share their state's maze)."""
        if self._slots is None:
            self._slots = self._find_slots()
        return list(self._slots)

    def _find_slots(self) -> list[Slot]:
        reach = self.reach()
        cells = self.cells
        empty: set[Cell] = set()
        for x, y in cells:
            for _, dx, dy, _ in STEPS:
                other = (x + dx, y + dy)
                if other not in cells:
                    empty.add(other)
        return [self.slot(cell, reach) for cell in sorted(empty)]

    def slot(self, cell: Cell, reach: dict[Cell, int] | None = None,
             goal_cells: Set[Cell] | None = None) -> Slot:
        reach = self.reach() if reach is None else reach
        goal_cells = _GOAL_SET if goal_cells is None else goal_cells
        cells = self.cells
        must = need = live = 0
        near_goal = False
        x, y = cell
        for direction, dx, dy, back in STEPS:
            other = (x + dx, y + dy)
            placed = cells.get(other)
            if placed is None:
                continue
            near_goal = near_goal or other in goal_cells
            if placed.hidden:
                continue
            must |= direction
            if placed.exits & back:
                need |= direction
            if reach.get(other, 0) & back:
                live |= direction
        return Slot(cell, must, need, live, near_goal)

    def touches(self, cell: Cell) -> bool:
        return any(neighbour(cell, d) in self.cells for d in DIRECTIONS)


def edge_error(slot: Slot, exits: int) -> IllegalMove | None:
    """Why a card with `exits` does not fit the edges at `slot` (code edges_mismatch)."""
    for direction in bits(slot.must):
        word = WORDS[direction]
        if exits & direction and not slot.need & direction:
            return IllegalMove("edges_mismatch", f"That card has a tunnel on its {word} side, "
                               f"but the card to its {word} has a wall there.",
                               {"side": word, "card_has": "tunnel"})
        if slot.need & direction and not exits & direction:
            return IllegalMove("edges_mismatch", f"That card has a wall on its {word} side, "
                               f"but the card to its {word} has a tunnel there.",
                               {"side": word, "card_has": "wall"})
    return None
