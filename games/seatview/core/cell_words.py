"""The maze in words, cell by cell, from a view's JSON only: what a screen reader says
on each cell of the seat page's grid, the replay's and the turn email's.

A cell says its coordinates, its card (the card's name already tells a door's colour,
a ladder and crystals), the sides its tunnels leave by in the reader's words, and
whether a tunnel of it joins the start. Joining is worked out here from the placed
cards' segments, as the engine does (games.engine.board.Maze.reached_nodes): the start
and every ladder are sources, a tunnel passes from a segment to the neighbour's segment
that opens towards it. The frontier is the empty cells such a tunnel runs into: where
a card could join the maze.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

import orjson
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine.types import CardView, SeatView
from games.kit.lru import BoundedLRU
from games.seatview.core import compass
from games.seatview.core.words import card_name, cell, goal_result

Cell = tuple[int, int]
Node = tuple[Cell, int]
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def placed_cards(view: SeatView) -> dict[Cell, CardView]:
    return {(c["x"], c["y"]): c["card"] for c in view.get("board", [])}


def _segments(card: Mapping[str, Any]) -> list[list[str]]:
    return [list(s) for s in card.get("segments") or []]


def _reached(cards: Mapping[Cell, Mapping[str, Any]]) -> set[Node]:
    """Every segment joined to the start (or to a ladder) by unbroken tunnels."""
    sources = [(where, i) for where, card in cards.items()
               if card.get("kind") == "start" or card.get("ladder")
               for i, _segment in enumerate(_segments(card))]
    seen = set(sources)
    queue = deque(sources)
    while queue:
        (x, y), index = queue.popleft()
        for side in _segments(cards[(x, y)])[index]:
            dx, dy = STEP[side]
            other = (x + dx, y + dy)
            there = cards.get(other)
            if there is None:
                continue
            back = compass.OPPOSITE[side]
            j = next((k for k, seg in enumerate(_segments(there)) if back in seg), -1)
            if j >= 0 and (other, j) not in seen:
                seen.add((other, j))
                queue.append((other, j))
    return seen


def joined_cells(view: SeatView) -> set[Cell]:
    """The cells with a tunnel joined to the start."""
    return {where for where, _index in _reached(placed_cards(view))}


def frontier(view: SeatView) -> list[Cell]:
    """The empty cells a tunnel from the start runs into, left to right, top to bottom."""
    cards = placed_cards(view)
    open_cells: set[Cell] = set()
    for (x, y), index in _reached(cards):
        for side in _segments(cards[(x, y)])[index]:
            dx, dy = STEP[side]
            if (x + dx, y + dy) not in cards:
                open_cells.add((x + dx, y + dy))
    return sorted(open_cells)


def exits_in_words(card: Mapping[str, Any]) -> str:
    """The sides a card's tunnels leave by, in the reader's words: "north, south"."""
    sides = {side for seg in _segments(card) for side in seg}
    words = compass.SPOKEN[compass.language_code()]
    return ", ".join(words[i] for i, side in enumerate(compass.SIDES) if side in sides)


def goal_words(card: Mapping[str, Any]) -> str:
    """A goal card as this reader knows it: face down, mapped, shown or turned over."""
    goal = card.get("goal")
    if goal == "hidden":
        return _("face-down goal")
    if card.get("shown"):
        return _("goal shown at the end of the round: %(result)s") % {
            "result": goal_result(str(goal))}
    if not card.get("revealed", True):
        return _("face-down goal (your map showed: %(result)s)") % {
            "result": goal_result(str(goal))}
    return _("goal: %(result)s") % {"result": goal_result(str(goal))}


def card_words(card: Mapping[str, Any]) -> str:
    """A placed card's name, or a goal as this reader knows it."""
    if card.get("kind") == "goal" or card.get("goal") is not None:
        return goal_words(card)
    return card_name(card)


def cell_words(x: int, y: int, card: Mapping[str, Any] | None, *, joined: bool = False,
               open_: bool = False) -> str:
    """What one cell of the maze says: "(1, 0): Tunnel E-W; exits east, west; joins the
    start"; an empty cell "(2, 0): empty", and when a tunnel from the start runs into it
    (`open_`) "(2, 0): empty, a tunnel from the start leads here".

    Remembered per process (`plain_cell_words` stays the reference): a maze is said
    again on every refresh of every seat's page, most of its cells as before. The words
    depend on nothing but the cell, the card, `joined`, `open_` and the language active
    now, and the key holds all of them."""
    try:
        told = b"" if card is None else orjson.dumps(card, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # not JSON (a test's hand-made card): said every time
        return plain_cell_words(x, y, card, joined=joined, open_=open_)
    key = (get_language(), x, y, told, joined, open_)
    said = _said.get(key)
    if said is None:
        said = plain_cell_words(x, y, card, joined=joined, open_=open_)
        _said.put(key, said)
    return said


# About 80 bytes of words and 200 of key a cell: a few MB a process.
_said: BoundedLRU[tuple[str | None, int, int, bytes, bool, bool], str] = BoundedLRU(20_000)


def plain_cell_words(x: int, y: int, card: Mapping[str, Any] | None, *, joined: bool = False,
                     open_: bool = False) -> str:
    """`cell_words`, said afresh."""
    where = cell(x, y)
    if card is None:
        if open_:
            return _("%(cell)s: empty, a tunnel from the start leads here") % {"cell": where}
        return _("%(cell)s: empty") % {"cell": where}
    parts = [f"{where}: {card_words(card)}"]
    exits = exits_in_words(card)
    if exits:
        parts.append(_("exits %(sides)s") % {"sides": exits})
    if joined and card.get("kind") != "start":
        parts.append(_("joins the start"))
    return "; ".join(parts)


def maze_words(view: SeatView) -> dict[Cell, str]:
    """Every placed card's and every frontier cell's words, by cell; other empty cells
    say `cell_words(x, y, None)`."""
    cards = placed_cards(view)
    joined = joined_cells(view)
    words = {where: cell_words(*where, card, joined=where in joined)
             for where, card in cards.items()}
    for where in frontier(view):
        words[where] = cell_words(*where, None, open_=True)
    return words


def word_lines(view: SeatView) -> list[str]:
    """The placed cards' and the frontier's words, column by column from the start's side
    (the plain-text email's list under its map)."""
    return [said for _where, said in sorted(maze_words(view).items())]
