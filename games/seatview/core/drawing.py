"""The maze and path cards as inline SVG, drawn only from a view's JSON.

A card is a 100 x 100 square. Each segment of a card is drawn on its own: a segment
joining several exits runs from each exit to a hub; a one-exit segment is a stub
ending in rock, so a dead end is visibly dead. Separate segments (a bridge, a curve
with a stub) stay separate: a second crossing tunnel is drawn over a gap.
Saboteur 2: a door sits on its tunnel's hub in its colour and shape (blue and round,
green and a diamond: not told by hue alone); a ladder
is drawn in the middle (its tunnels run to it, a single exit included); crystals are
small gems in the top right corner.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine.types import SeatView
from games.seatview.core import cell_words, describe

CELL = 100
HALF = CELL // 2
TUNNEL = 24
STUB = 30  # how far a dead-end stub reaches into the card
EXIT_POINT = {"N": (HALF, 0), "E": (CELL, HALF), "S": (HALF, CELL), "W": (0, HALF)}
DIRECTION = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _line(x1: float, y1: float, x2: float, y2: float, cls: str) -> SafeString:
    return format_html('<line x1="{}" y1="{}" x2="{}" y2="{}" class="{}"/>',
                       _n(x1), _n(y1), _n(x2), _n(y2), cls)


def _n(value: float) -> str:
    return f"{value:g}"


def _hub(exits: Sequence[str], *, offset: bool) -> tuple[float, float]:
    if not offset:
        return HALF, HALF
    dx = sum(DIRECTION[e][0] for e in exits) / len(exits)
    dy = sum(DIRECTION[e][1] for e in exits) / len(exits)
    return HALF + dx * 22, HALF + dy * 22


def _segment(exits: Sequence[str], *, offset: bool, crossing: bool, ladder: bool = False
             ) -> list[SafeString]:
    """One segment: a stub ending in rock, or arms from each exit to a hub. A ladder's
    single exit runs to the hub too: the ladder there connects it."""
    parts: list[SafeString] = []
    if len(exits) == 1 and not ladder:
        ex, ey = EXIT_POINT[exits[0]]
        dx, dy = DIRECTION[exits[0]]
        end_x, end_y = ex - dx * STUB, ey - dy * STUB
        parts.append(_line(ex, ey, end_x, end_y, "tunnel"))
        # A wall of rock across the stub's end: the tunnel visibly stops here.
        across, thick = TUNNEL + 10, 9
        width, height = (across, thick) if dx == 0 else (thick, across)
        parts.append(format_html('<rect x="{}" y="{}" width="{}" height="{}" class="rock"/>',
                                 _n(end_x - width / 2), _n(end_y - height / 2), width, height))
        return parts
    hx, hy = _hub(exits, offset=offset)
    for name in exits:
        ex, ey = EXIT_POINT[name]
        if crossing:
            parts.append(_line(ex, ey, hx, hy, "gap"))
        parts.append(_line(ex, ey, hx, hy, "tunnel"))
    parts.append(format_html('<circle cx="{}" cy="{}" r="{}" class="tunnel-hub"/>',
                             _n(hx), _n(hy), TUNNEL // 2))
    return parts


# A door's colour is told twice: by its fill and by its shape, round for blue, a diamond
# for green, so a reader who cannot tell the two hues apart (or sees the page in grey)
# still can. Both carry the same white keyhole, which says "door".
DOOR_SHAPES = {"blue": "round", "green": "diamond"}
DOOR_RADIUS = 17  # the round door; the diamond reaches 3 units further, for a like area


def _door(colour: str, exits: Sequence[str]) -> SafeString:
    """A door across the hub of its tunnel: round if blue, a diamond if green, filled
    with its colour, ringed in light (it stands out on the dark card and the light
    tunnel), with a white keyhole."""
    hx, hy = _hub(exits, offset=False)
    if DOOR_SHAPES.get(colour) == "diamond":
        r = DOOR_RADIUS + 3
        outline = format_html('<polygon points="{},{} {},{} {},{} {},{}" class="door-shape"/>',
                              _n(hx), _n(hy - r), _n(hx + r), _n(hy), _n(hx), _n(hy + r),
                              _n(hx - r), _n(hy))
    else:
        outline = format_html('<circle cx="{}" cy="{}" r="{}" class="door-shape"/>',
                              _n(hx), _n(hy), DOOR_RADIUS)
    return format_html(
        '<g class="door door-{} door-{}">{}<circle cx="{}" cy="{}" r="4" class="keyhole"/>'
        '<rect x="{}" y="{}" width="3" height="9" class="keyhole"/></g>',
        colour, DOOR_SHAPES.get(colour, "round"), outline, _n(hx), _n(hy - 3),
        _n(hx - 1.5), _n(hy - 1))


def _ladder() -> SafeString:
    """A ladder in the middle of the card: two rails and three rungs."""
    rails = [_line(x, HALF - 17, x, HALF + 17, "ladder-rail") for x in (HALF - 8, HALF + 8)]
    rungs = [_line(HALF - 8, y, HALF + 8, y, "ladder-rung")
             for y in (HALF - 10, HALF, HALF + 10)]
    return format_html('<g class="ladder">{}</g>',
                       format_html_join("", "{}", ((p,) for p in rails + rungs)))


def _crystals(count: int) -> SafeString:
    """Small crystals in the top right corner, one per crystal."""
    shapes = []
    for i in range(count):
        x = 86 - i * 16
        shapes.append(format_html('<polygon points="{},5 {},14 {},25 {},14" class="crystal"/>',
                                  x, x + 7, x, x - 7))
    return format_html_join("", "{}", ((s,) for s in shapes))


# A card's tunnels depend on its shape alone, and a page draws the same few dozen shapes
# over and over (every placed and held card; the same shapes on every page): each shape
# is drawn once per process. The text holds no words, so the language does not matter.
Shape = tuple[tuple[tuple[str, ...], ...], bool, str, tuple[tuple[str, ...], ...], int]


def _shape(card: Mapping[str, Any]) -> Shape:
    door = card.get("door")
    return (tuple(tuple(seg) for seg in card.get("segments") or ()), bool(card.get("ladder")),
            str(door or ""),
            tuple(tuple(seg) for seg in card.get("door_segments", ())) if door else (),
            int(card.get("crystals") or 0))


@functools.lru_cache(maxsize=512)
def _tunnels_of(shape: Shape) -> SafeString:
    """The tunnels of a card's shape (its `segments` after rotation, and the rest: see
    `_shape`), in a 100 x 100 box: stubs, bridges kept apart, doors in their colour, a
    ladder, crystals."""
    segments, ladder, door, door_segments, crystals = shape
    joined = [s for s in segments if len(s) > 1 or ladder]
    parts: list[SafeString] = []
    seen_joined = 0
    for seg in segments:
        is_joined = len(seg) > 1
        parts.extend(_segment(seg, offset=len(joined) > 1 and not _straight(seg),
                              crossing=is_joined and seen_joined > 0, ladder=ladder))
        seen_joined += is_joined
    for seg in door_segments:
        parts.append(_door(door, seg))
    if ladder:
        parts.append(_ladder())
    if crystals:
        parts.append(_crystals(crystals))
    return format_html_join("", "{}", ((p,) for p in parts))


def _straight(segment: Sequence[str]) -> bool:
    return set(segment) in ({"N", "S"}, {"E", "W"})


def card_face(card: Mapping[str, Any]) -> SafeString:
    """The inside of one placed or hand card (background, tunnels, goal marks)."""
    return _face(card.get("kind", "path"), card.get("goal"),
                 revealed=bool(card.get("revealed", True)), shown=bool(card.get("shown")),
                 shape=_shape(card), language=get_language())


# A face depends on the card's kind, goal, whether it is turned over or shown, its shape
# and (a mapped goal's word) the language, nothing else: a maze's few dozen faces are
# drawn once per process, not on every refresh of every page.
@functools.lru_cache(maxsize=2048)
def _face(kind: Any, goal: Any, *, revealed: bool, shown: bool, shape: Shape,
          language: str | None) -> SafeString:
    # `shown`: face down when the round ended, shown since
    if goal == "hidden" or (goal in ("gold", "stone") and not revealed and not shown):
        return _goal_back(goal)
    body = format_html('<rect x="2" y="2" width="96" height="96" rx="6" class="{}"/>{}',
                       "card " + str(kind) + (" shown" if shown else ""), _tunnels_of(shape))
    if goal == "gold":
        body += mark_safe('<circle cx="50" cy="50" r="15" class="gold"/>')
    elif goal == "stone":
        body += mark_safe('<circle cx="50" cy="50" r="13" class="stone"/>')
    if kind == "start":
        body += mark_safe('<circle cx="50" cy="50" r="13" class="start-mark"/>')
    return body


# A word longer than this is squeezed into the card's width (lengthAdjust) instead of
# spilling over its edge ("pietra", "piedra" in the mapped goal's big letters).
MAPPED_WORD_FITS = 5


def _goal_back(known: str | None) -> SafeString:
    back = mark_safe('<rect x="2" y="2" width="96" height="96" rx="6" class="card back"/>')
    if known not in ("gold", "stone"):
        return back + mark_safe('<text x="50" y="62" class="back-mark">?</text>')
    # What this seat's map showed, readable on a phone (it was a 13-unit caption, 6 px on
    # a 48 px cell): the result's own mark, as the face shows it, and its word in big
    # letters, on the card's back (it is still face down for the others).
    word = describe.goal_result(known)
    squeeze = (mark_safe(' textLength="90" lengthAdjust="spacingAndGlyphs"')
               if len(word) > MAPPED_WORD_FITS else "")
    return back + format_html(
        '<circle cx="50" cy="38" r="{}" class="{} mapped-mark"/>'
        '<text x="50" y="90" class="mapped {}"{}>{}</text>',
        19 if known == "gold" else 17, known, known, squeeze, word)


def card_svg(card: Mapping[str, Any], width: int = 64, label: str = "") -> SafeString:
    """A stand-alone small SVG of a path card (for the hand), or of the start or a goal
    (the rules page, with its `label`)."""
    return format_html(
        '<svg class="card-svg" viewBox="0 0 100 100" width="{}" height="{}" role="img" '
        'aria-label="{}">{}</svg>', width, width, label or describe.card_name(card),
        card_face(card))


def _bounds(cells: Iterable[tuple[int, int]]) -> tuple[int, int, int, int]:
    xs, ys = zip(*cells, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def board_svg(view: SeatView, targets: Iterable[tuple[int, int]] = (),
              changed: Iterable[tuple[int, int]] = (),
              pointed: tuple[int, int] | None = None) -> SafeString:
    """The maze of a view as a grid a screen reader reads (WAI-ARIA grid: rows of cells,
    each named by its words, `games.seatview.core.cell_words`), with `targets` (cells some
    legal move could use) outlined and `changed` (cells the latest moves changed) marked;
    a changed cell left empty (a rockfall) is outlined where the card was. `pointed`: the
    cell a lesson's guide is about (games.learn), framed, starred and named so in its
    words. Every cell of the rectangle is a cell of the grid, empty ones too; the start
    is its one tab stop (the page's script moves it: static/games/grid.js)."""
    placed = {(c["x"], c["y"]): c["card"] for c in view["board"]}
    target_cells = set(targets) - set(placed)
    fresh = set(changed)
    cleared = fresh - set(placed) - target_cells
    extra = [pointed] if pointed is not None else []
    x0, y0, x1, y1 = _bounds(list(placed) + sorted(target_cells) + sorted(cleared) + extra)
    pad = 24
    box = (x0 * CELL - pad, y0 * CELL - pad, (x1 - x0 + 1) * CELL + 2 * pad,
           (y1 - y0 + 1) * CELL + 2 * pad)
    words = cell_words.maze_words(view)
    rows: list[str] = []
    for y in range(y0, y1 + 1):
        cells: list[str] = []
        for x in range(x0, x1 + 1):
            card = placed.get((x, y))
            if card is not None:
                kind, inside = "placed", card_face(card) + _coordinate(x, y)
            elif (x, y) in target_cells:
                kind = "target"
                inside = SLOT + _coordinate(x, y)
            elif (x, y) in cleared:
                kind, inside = "cleared", _coordinate(x, y)
            else:
                kind, inside = "empty", VOID
            words_here = words.get((x, y)) or cell_words.cell_words(x, y, None)
            here = (x, y) == pointed
            if here:
                words_here = _("%(cell)s; the guide's cell") % {"cell": words_here}
            label = escape(words_here)
            # Plain strings: a big maze has a hundred cells and more, on every refresh;
            # every value is an int, a fixed word, escaped words or the SVG built above.
            cells.append(
                f'<g class="cell {kind}{_changed(x, y, fresh)}{" pointed" if here else ""}" '
                f'data-cell="{x},{y}" '
                f'role="gridcell" tabindex="{0 if (x, y) == (0, 0) else -1}" '
                f'aria-label="{label}" transform="translate({x * CELL} {y * CELL})">'
                f"{inside}{_changed_mark(x, y, fresh)}{POINTED_MARK if here else ''}</g>")
        rows.append('<g role="row">' + "".join(cells) + "</g>")
    # A fixed scale per card: the class says how many cards wide the maze is and the
    # stylesheet (maze.css) gives each width its size, so a big maze scrolls instead of
    # shrinking to nothing, with no inline style (the Content-Security-Policy forbids it).
    return format_html(
        '<svg class="maze cards-{}" viewBox="{} {} {} {}" role="grid" '
        'aria-label="{}" preserveAspectRatio="xMidYMid meet">{}</svg>',
        width_class(box[2]), *box, _("The maze"),
        mark_safe("".join(rows)))  # noqa: S308  (built above from ints, escaped words, SVG)


# The guide's cell (games.learn): a thick frame and a star, drawn over the card, so it is
# told by shape as well as colour.
POINTED_MARK = mark_safe('<rect x="3" y="3" width="94" height="94" rx="8" class="pointed-mark"/>'
                         '<text x="92" y="92" text-anchor="end" class="pointed-star">★</text>')
# A free cell some move could use; an empty cell, transparent, to take focus and clicks.
SLOT = mark_safe('<rect x="4" y="4" width="92" height="92" rx="6" class="slot"/>')
VOID = mark_safe('<rect width="100" height="100" class="void"/>')
MAX_WIDTH_CLASS = 40


def width_class(width: float) -> int:
    """The maze's width in whole cards, rounded up (cards-1 ... cards-40)."""
    return max(1, min(MAX_WIDTH_CLASS, math.ceil(width / CELL)))


def _changed(x: int, y: int, fresh: set[tuple[int, int]]) -> str:
    return " changed" if (x, y) in fresh else ""


def _changed_mark(x: int, y: int, fresh: set[tuple[int, int]]) -> SafeString:
    """A frame around a cell the latest moves changed (drawn over the card)."""
    return CHANGED_MARK if (x, y) in fresh else NO_MARK


CHANGED_MARK = mark_safe('<rect x="1" y="1" width="98" height="98" rx="7" class="changed-mark"/>')
NO_MARK = mark_safe("")


@functools.lru_cache(maxsize=4096)
def _coordinate(x: int, y: int) -> SafeString:
    """The cell's coordinates in its top left corner, hung from the top: a phone draws
    them bigger (turn.css), and from a baseline their tops stuck out of the cell."""
    return format_html('<text x="8" y="8" dominant-baseline="hanging" class="coord">{},{}'
                       "</text>", x, y)
