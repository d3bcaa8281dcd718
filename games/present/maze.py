"""The maze for emails, drawn only from a view's JSON: an HTML table and plain text.

Mail clients show no SVG and (rightly) block remote images, so the HTML picture is a
table: each card is a 3 x 3 grid of coloured cells (`bgcolor`, which every client
honours): tunnel arms and the hub in sand, rock in brown, and a dead-end stub in a
darker sand with the hub left as rock, so a dead end looks dead. Face-down goals are
dark with a "?", revealed ones gold or grey. Coordinates run along the edges, as on
the seat page, so the log's "(3, 1)" can be found.

The plain-text part draws each card as one box-drawing character.
Saboteur 2's doors, ladders, bridges and crystals: see `maze_s2`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from django.utils.safestring import SafeString, mark_safe

from games.engine.types import JSON
from games.present import maze_s2

PX = 8  # one of the 3 x 3 cells of a card; a card is 24 px square

EMPTY = "#efe6d6"
ROCK = "#7a5a3a"
TUNNEL = "#f3d38c"
STUB = "#c49a52"
START = "#8fc16a"
HIDDEN = "#3d3d3d"
GOLD = "#f2c200"
STONE = "#a6a6a6"
GRID = "#5b4630"
PAPER = "#fffdf8"

ARM = {"N": (0, 1), "E": (1, 2), "S": (2, 1), "W": (1, 0)}

BOX = {
    "NS": "│", "EW": "─", "EN": "└", "NW": "┘", "ES": "┌", "SW": "┐",
    "ENS": "├", "NSW": "┤", "ESW": "┬", "ENW": "┴", "ENSW": "┼",
    "N": "╵", "E": "╶", "S": "╷", "W": "╴",
}


def card_grid(card: JSON) -> list[list[str]]:
    """The 3 x 3 colours of a path card (or the start)."""
    tunnel = START if card.get("kind") == "start" else TUNNEL
    grid = [[ROCK] * 3 for _ in range(3)]
    for segment in card.get("segments", []):
        if len(segment) >= 2:
            grid[1][1] = tunnel
            for exit_ in segment:
                row, col = ARM[exit_]
                grid[row][col] = tunnel
    for segment in card.get("segments", []):
        if len(segment) == 1:
            row, col = ARM[segment[0]]
            if grid[row][col] == ROCK:
                grid[row][col] = STUB
    maze_s2.overlay(card, grid, tunnel)
    return grid


def _goal_grid(card: JSON) -> tuple[list[list[str]], str]:
    status = card.get("goal")
    colour = {"gold": GOLD, "stone": STONE}.get(str(status), HIDDEN)
    grid = [[colour] * 3 for _ in range(3)]
    if status in ("gold", "stone") and card.get("segments"):
        # A revealed goal shows its tunnels over its colour.
        for segment in card["segments"]:
            for exit_ in segment:
                row, col = ARM[exit_]
                grid[row][col] = TUNNEL
    mark = {"gold": "G", "stone": ""}.get(str(status), "?")
    return grid, mark


def _grid_table(grid: list[list[str]], mark: str = "") -> str:
    # Plain strings: every value here is one of our colours, an int or "G"/"?" (no input).
    rows = []
    for r, row in enumerate(grid):
        cells = []
        for c, colour in enumerate(row):
            if (r, c) == (1, 1) and mark:
                cells.append(f'<td width="{PX}" height="{PX}" bgcolor="{colour}" style="font:'
                             f'bold 7px/8px sans-serif;color:#fff;text-align:center">{mark}</td>')
            else:
                cells.append(f'<td width="{PX}" height="{PX}" bgcolor="{colour}"></td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return '<table cellpadding="0" cellspacing="0" border="0">' + "".join(rows) + "</table>"


CardKey = tuple[str | None, str | None, tuple[tuple[str, ...], ...], maze_s2.Extras]


def _card_key(card: JSON) -> CardKey:
    segments = tuple(tuple(s) for s in card.get("segments", []))
    return (card.get("kind"), card.get("goal"), segments, maze_s2.extras(card))


@lru_cache(maxsize=512)
def _card_table(key: CardKey) -> str:
    """The table of one kind of card (cached: a maze repeats a few dozen kinds)."""
    kind, goal, segments, extras = key
    card = {"kind": kind, "goal": goal, "segments": [list(s) for s in segments],
            **maze_s2.fields(extras)}
    if kind == "goal" or goal is not None:
        grid, mark = _goal_grid(card)
        return _grid_table(grid, mark)
    return _grid_table(card_grid(card), maze_s2.mark(card))


def card_html(card: JSON) -> SafeString:
    """One card as a small coloured table (path cards, start and goals)."""
    return mark_safe(_card_table(_card_key(card)))


def _cells(view: JSON) -> dict[tuple[int, int], JSON]:
    return {(c["x"], c["y"]): c["card"] for c in view.get("board", [])}


def _bounds(cells: Iterable[tuple[int, int]]) -> tuple[range, range]:
    points = list(cells) or [(0, 0)]
    xs = [x for x, _ in points] + [0, 8]
    ys = [y for _, y in points] + [-2, 2]
    return range(min(xs), max(xs) + 1), range(min(ys), max(ys) + 1)


def maze_html(view: JSON) -> SafeString:
    """The whole maze as one table of cards, with coordinates on the edges."""
    cells = _cells(view)
    xs, ys = _bounds(cells)
    label = f'bgcolor="{PAPER}" style="font:9px sans-serif;color:{GRID};text-align:center"'
    rows = [f"<tr><td {label}></td>" + "".join(f"<td {label}>{x}</td>" for x in xs) + "</tr>"]
    for y in ys:
        tds = []
        for x in xs:
            card = cells.get((x, y))
            if card is None:
                tds.append(f'<td width="24" height="24" bgcolor="{EMPTY}"></td>')
            else:
                tds.append(f'<td width="24" height="24" bgcolor="{ROCK}">'
                           f"{_card_table(_card_key(card))}</td>")
        rows.append(f"<tr><td {label}>{int(y)}</td>" + "".join(tds) + "</tr>")
    return mark_safe(f'<table class="maze" cellpadding="0" cellspacing="1" border="0" '
                     f'bgcolor="{GRID}" role="img">' + "".join(rows) + "</table>")


def card_char(card: JSON) -> str:
    """One character for a card in the plain-text maze."""
    if card.get("kind") == "goal" or card.get("goal") is not None:
        return {"gold": "G", "stone": "o"}.get(str(card.get("goal")), "?")
    if card.get("kind") == "start":
        return "S"
    expansion = maze_s2.char(card)
    if expansion:
        return expansion
    segments = card.get("segments", [])
    joined = sorted({e for s in segments if len(s) >= 2 for e in s})
    if joined:
        return BOX.get("".join(joined), "+")
    stubs = sorted({e for s in segments for e in s})
    if len(stubs) == 1:
        return BOX[stubs[0]]
    return "x"


def maze_text(view: JSON) -> str:
    """The maze as lines of text: one character per card, '.' for an empty cell."""
    cells = _cells(view)
    xs, ys = _bounds(cells)
    lines = ["   " + "".join(f"{x:>3}" for x in xs)]
    for y in ys:
        row = "".join("  " + (card_char(cells[(x, y)]) if (x, y) in cells else ".")
                      for x in xs)
        lines.append(f"{y:>3}{row}")
    return "\n".join(lines)
