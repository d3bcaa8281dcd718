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

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engine.types import CardView, SeatView
from games.seatview.core import cell_words, maze_s2
from games.seatview.core.maze_s2 import Card

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


def card_grid(card: Card) -> list[list[str]]:
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


def _goal_grid(card: Card) -> tuple[list[list[str]], str]:
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


def _grid_table(grid: list[list[str]], mark: str = "", px: int = PX) -> str:
    # Plain strings: every value here is one of our colours, an int or "G"/"?" (no input).
    rows = []
    font = max(7, px - 1)
    for r, row in enumerate(grid):
        cells = []
        for c, colour in enumerate(row):
            if (r, c) == (1, 1) and mark:
                cells.append(f'<td width="{px}" height="{px}" bgcolor="{colour}" style="font:'
                             f'bold {font}px/{px}px sans-serif;color:#fff;text-align:center">'
                             f'{mark}</td>')
            else:
                cells.append(f'<td width="{px}" height="{px}" bgcolor="{colour}"></td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ('<table role="presentation" cellpadding="0" cellspacing="0" border="0">'
            + "".join(rows) + "</table>")


CardKey = tuple[str | None, str | None, tuple[tuple[str, ...], ...], maze_s2.Extras]


def _card_key(card: Card) -> CardKey:
    segments = tuple(tuple(s) for s in card.get("segments", []))
    return (card.get("kind"), card.get("goal"), segments, maze_s2.extras(card))


@lru_cache(maxsize=512)
def _card_table(key: CardKey, px: int = PX) -> str:
    """The table of one kind of card (cached: a maze repeats a few dozen kinds)."""
    kind, goal, segments, extras = key
    card = {"kind": kind, "goal": goal, "segments": [list(s) for s in segments],
            **maze_s2.fields(extras)}
    if kind == "goal" or goal is not None:
        grid, mark = _goal_grid(card)
        return _grid_table(grid, mark, px)
    return _grid_table(card_grid(card), maze_s2.mark(card), px)


def card_html(card: Card, px: int = PX) -> SafeString:
    """One card as a small coloured table (path cards, start and goals); `px` is one of
    its 3 x 3 cells (the maze's 8, a hand card's 16: 48 px square)."""
    return mark_safe(_card_table(_card_key(card), px))  # noqa: S308  (built from fixed colours and ints)


# An action card in an email's hand: a coloured square with its tool or sign, so the
# hand reads as pictures like the path cards (emoji, which every mail client shows).
ACTION_SIGNS = {"pickaxe": "⛏", "lantern": "🔦", "cart": "🛒", "rockfall": "🪨",
                "map": "🗺", "theft": "💰", "hands_off": "✋", "swap_hand": "🔄",
                "inspection": "🔍", "swap_hats": "🎩", "trapped": "🔒", "free_at_last": "🔓"}
ACTION_COLOURS = {"break": "#c62828", "repair": "#2e7d32", "trapped": "#455a64"}
HAND_PX = 16


def action_sign(card: Card) -> str:
    """The sign of an action card: its tools' for a broken tool or a repair, else its
    action's ("" for a card that is no action card)."""
    action = str(card.get("action") or "")
    if action in ("break", "repair"):
        return "".join(ACTION_SIGNS.get(str(t), "") for t in card.get("tools") or [])
    return ACTION_SIGNS.get(action, "")


def action_html(card: Card) -> SafeString:
    """An action card as a 48 px square: red for a broken tool, green for a repair, sand
    for the others, with the tools' or the action's sign."""
    action = str(card.get("action"))
    sign = action_sign(card) or "?"
    colour = ACTION_COLOURS.get(action, TUNNEL)
    text = "#ffffff" if action in ACTION_COLOURS else GRID
    strike = "text-decoration:line-through;" if action == "break" else ""
    size = 3 * HAND_PX
    return format_html(
        '<table cellpadding="0" cellspacing="0" border="0"><tr><td width="{}" height="{}" '
        'bgcolor="{}" align="center" valign="middle" style="font:20px/{}px sans-serif;'
        'color:{};{}border-radius:4px">{}</td></tr></table>',
        size, size, colour, size, text, strike, sign)


def hand_picture(card: CardView) -> SafeString:
    """A hand card in an email: a path card as the maze draws it, 48 px; an action card as
    its coloured square."""
    if card.get("segments"):
        return card_html(card, HAND_PX)
    return action_html(card)


def _cells(view: SeatView) -> dict[tuple[int, int], CardView]:
    return {(c["x"], c["y"]): c["card"] for c in view.get("board", [])}


def _bounds(cells: Iterable[tuple[int, int]]) -> tuple[range, range]:
    """Columns and rows from the start to the goals and every cell given."""
    points = list(cells) or [(0, 0)]
    xs = [x for x, _ in points] + [0, 8]
    ys = [y for _, y in points] + [-2, 2]
    return range(min(xs), max(xs) + 1), range(min(ys), max(ys) + 1)


def maze_html(view: SeatView, targets: Iterable[tuple[int, int]] = ()) -> SafeString:
    """The whole maze as one table of cards, with coordinates on the edges; wide enough
    for `targets` too (the free cells the reader's moves could use, so every cell an
    email's examples name is on the picture). A screen reader reads it as a grid whose
    cells say the same words as the seat page's maze (`cell_words`); the coordinates are
    its column and row headers, the little tables drawing each card are presentation."""
    cells = _cells(view)
    xs, ys = _bounds([*cells, *targets])
    words = cell_words.maze_words(view)
    label = f'bgcolor="{PAPER}" style="font:9px sans-serif;color:{GRID};text-align:center"'
    rows = [f'<tr role="row"><td role="presentation" {label}></td>'
            + "".join(f'<td role="columnheader" {label}>{x}</td>' for x in xs) + "</tr>"]
    for y in ys:
        tds = []
        for x in xs:
            card = cells.get((x, y))
            said = escape(words.get((x, y)) or cell_words.cell_words(x, y, None))
            if card is None:
                tds.append(f'<td role="gridcell" aria-label="{said}" width="24" height="24" '
                           f'bgcolor="{EMPTY}"></td>')
            else:
                tds.append(f'<td role="gridcell" aria-label="{said}" width="24" height="24" '
                           f'bgcolor="{ROCK}">{_card_table(_card_key(card))}</td>')
        rows.append(f'<tr role="row"><td role="rowheader" {label}>{int(y)}</td>'
                    + "".join(tds) + "</tr>")
    return mark_safe(  # noqa: S308  (fixed colours, ints, escaped words and the card tables)
        f'<table class="maze" cellpadding="0" cellspacing="1" border="0" '
        f'bgcolor="{GRID}" role="grid" aria-readonly="true" aria-label="{escape(_("The maze"))}">'
        + "".join(rows) + "</table>")


def card_char(card: Card) -> str:
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


def maze_text(view: SeatView, targets: Iterable[tuple[int, int]] = ()) -> str:
    """The maze as lines of text: one character per card, '.' for an empty cell; as wide
    as `maze_html` with the same `targets`."""
    cells = _cells(view)
    xs, ys = _bounds([*cells, *targets])
    lines = ["   " + "".join(f"{x:>3}" for x in xs)]
    for y in ys:
        row = "".join("  " + (card_char(cells[(x, y)]) if (x, y) in cells else ".")
                      for x in xs)
        lines.append(f"{y:>3}{row}")
    return "\n".join(lines)
