"""Placing path cards and turning goals over (docs/RULES.md Part 1 "Path cards")."""

from __future__ import annotations

from collections.abc import Iterator

from ..board import Maze, Slot, edge_error
from ..cards import (
    GOAL_CELLS,
    GOAL_IDS,
    CardSpec,
)
from ..errors import IllegalMove
from ..geometry import DIRECTIONS, E, N, W, neighbour, rotate180
from ..move_shapes import named_card
from ..state import State
from ..types import Move
from .core import RulesCore


class PlacementRules(RulesCore):
    # ---- placing path cards --------------------------------------------------
    def fit_error(self, state: State, seat: int, slot: Slot, card: CardSpec,
                  rotated: bool) -> IllegalMove | None:
        exits = card.oriented_exits(rotated)
        mismatch = edge_error(slot, exits)
        if mismatch:
            return mismatch
        if not exits & slot.live:
            return IllegalMove("no_connection", "That card would not be joined to the start "
                               "card by an unbroken tunnel.")
        return None

    def fits(self, state: State, seat: int, slot: Slot, card: CardSpec, rotated: bool) -> bool:
        """Fast form of `fit_error(...) is None` for the move generator (bitmasks only)."""
        exits = card.oriented_exits(rotated)
        return exits & slot.must == slot.need and bool(exits & slot.live)

    def mask_fit_only(self, card: CardSpec) -> bool:
        """True when the edge bitmasks alone decide where `card` fits (see `fits`)."""
        return True

    def legal_place(self, state: State) -> Iterator[Move]:
        seat = state.turn
        if self.dig_blocker(state, seat):
            return
        paths = [self.cards[c] for c in state.hands[seat] if self.cards[c].kind == "path"]
        if not paths:
            return
        slots = [(s, s.cell[0], s.cell[1], s.must, s.need, s.live)
                 for s in self.maze(state).slots()]
        for card in paths:
            for rotated in (False, True):
                if self.mask_fit_only(card):
                    # The hot loop of the move generator: `fits` inlined as two bit tests.
                    exits = card.oriented_exits(rotated)
                    for _, x, y, must, need, live in slots:
                        if exits & must == need and exits & live:
                            yield {"type": "place", "card": card.id, "x": x, "y": y,
                                   "rotated": rotated}
                    continue
                for slot, x, y, _, _, _ in slots:
                    if self.fits(state, seat, slot, card, rotated):
                        yield {"type": "place", "card": card.id, "x": x, "y": y,
                               "rotated": rotated}

    def do_place(self, state: State, seat: int, move: Move) -> None:
        card = self.hand_card(state, seat, named_card(move), "path")
        blocker = self.dig_blocker(state, seat)
        if blocker:
            raise blocker
        cell = (move["x"], move["y"])
        maze = self.maze(state)
        if cell in maze.cells:
            raise IllegalMove("cell_occupied",
                              f"There is already a card at ({cell[0]}, {cell[1]}).",
                              {"x": cell[0], "y": cell[1]})
        if not maze.touches(cell):
            raise IllegalMove("not_adjacent", "A card must be placed next to a card already in "
                              "the maze.")
        error = self.fit_error(state, seat, maze.slot(cell), card, move["rotated"])
        if error:
            raise error
        state.hands[seat].remove(card.id)
        state.board[cell] = (card.id, move["rotated"])
        state.log.append({"type": "place", "seat": seat, "card": card.id, "name": card.name,
                          "x": cell[0], "y": cell[1], "rotated": move["rotated"]})
        if self.reveal_goals(state, cell):
            state.finder = seat
            state.last_turn = seat
            self.end_round(state, gold_found=True)
            return
        self.end_turn(state, seat)

    def reveal_goals(self, state: State, placed: tuple[int, int]) -> bool:
        """Turn over every face-down goal a tunnel now runs into; True if gold was found.

        Repeats until nothing changes: a turned stone becomes part of the maze and may
        carry the tunnel on (RULES.md ruling: reconnecting a cut branch counts too).
        """
        gold = False
        changed = self.goal_touched(state)
        while changed:
            changed = False
            maze = Maze(state, self.cards)
            for index, cell in enumerate(GOAL_CELLS):
                if state.goal_revealed[index]:
                    continue
                arriving = maze.arriving(cell)
                if not arriving:
                    continue
                kind = state.goal_kinds[index]
                rotated = self.stone_rotation(kind, arriving, placed, cell)
                state.goal_revealed[index] = True
                state.board[cell] = (GOAL_IDS[index], rotated)
                state.log.append({"type": "reveal", "goal": index, "x": cell[0], "y": cell[1],
                                  "result": "gold" if kind == "gold" else "stone",
                                  "rotated": rotated})
                gold = gold or kind == "gold"
                changed = True
                break  # rebuild the maze with the turned card before looking further
        return gold

    def goal_touched(self, state: State) -> bool:
        """Cheap pre-check: does any card's exit face a face-down goal at all?"""
        for index, cell in enumerate(GOAL_CELLS):
            if state.goal_revealed[index]:
                continue
            for direction in DIRECTIONS:
                entry = state.board.get(neighbour(cell, direction))
                if entry is None or entry[0].startswith("goal-"):
                    continue
                spec = self.cards[entry[0]]
                if spec.oriented_exits(entry[1]) & rotate180(direction):
                    return True
        return False

    @staticmethod
    def stone_rotation(kind: str, arriving: int, placed: tuple[int, int],
                       goal: tuple[int, int]) -> bool:
        """Orientation of a turned goal: a tunnel on the edge the tunnel arrived from.

        Ruling (not in RULES.md): when tunnels arrive on two edges that no single
        orientation both fits, the edge facing the card just placed wins; otherwise
        the orientation with more matching edges, then the printed one.
        """
        if kind == "gold":
            return False
        printed = N | (W if kind == "stone-nw" else E)
        turned = rotate180(printed)
        facing = next((d for d in DIRECTIONS if neighbour(goal, d) == placed), 0)
        if facing & arriving:
            return not printed & facing
        return bin(turned & arriving).count("1") > bin(printed & arriving).count("1")

