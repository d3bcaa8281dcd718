"""A rating's history drawn as an inline SVG, on the server (the page needs no script): the
rating after each rated round as a line with a dot per round, its scale written on the
left, the rated rounds' count below, the latest rating written at its dot.

One line in one colour, so nothing is told by colour alone; the drawing is an image with
a name (`role="img"` and its <title>), and the page gives the same numbers as a table
beside it (templates/games/player.html), for screen readers and anyone who wants the
figures. Everything is escaped: the only text in it is numbers and the caller's title.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

WIDTH, HEIGHT = 480, 220
LEFT, RIGHT, TOP, BOTTOM = 52, 44, 14, 34
# Steps of the rating scale, the smallest that needs at most MAX_TICKS lines.
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MAX_TICKS = 5
DOTS_UP_TO = 80  # more rounds than this: the line alone (the dots would touch)


@dataclass(frozen=True)
class Scale:
    low: int
    high: int
    step: int

    @property
    def ticks(self) -> list[int]:
        return list(range(self.low, self.high + 1, self.step))


def scale_for(ratings: Sequence[int]) -> Scale:
    """Round numbers around the ratings: at most MAX_TICKS lines, never a flat scale."""
    low, high = min(ratings), max(ratings)
    for step in STEPS:
        bottom = math.floor(low / step) * step
        top = max(math.ceil(high / step) * step, bottom + step)
        if (top - bottom) // step + 1 <= MAX_TICKS:
            return Scale(bottom, top, step)
    step = STEPS[-1]
    return Scale(math.floor(low / step) * step, math.ceil(high / step) * step + step, step)


def _x(index: int, count: int) -> float:
    inner = WIDTH - LEFT - RIGHT
    return LEFT + (inner * index / (count - 1) if count > 1 else inner / 2)


def _y(rating: int, scale: Scale) -> float:
    inner = HEIGHT - TOP - BOTTOM
    return TOP + inner * (scale.high - rating) / (scale.high - scale.low)


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def rating_plot(ratings: Sequence[int], first_round: int, *, title: str,
                rounds_label: str, plot_id: str) -> SafeString:
    """The plot of `ratings` (the rating before the first round shown, then after each
    rated round), whose first value stands after `first_round` rated rounds; `title`
    names it (the image's accessible name), `rounds_label` says what the bottom counts."""
    if not ratings:
        return SafeString("")
    scale = scale_for(ratings)
    count = len(ratings)
    points = [(_x(i, count), _y(rating, scale)) for i, rating in enumerate(ratings)]
    grid = format_html_join("", (
        '<line class="plot-grid" x1="{}" y1="{}" x2="{}" y2="{}"/>'
        '<text class="plot-scale" x="{}" y="{}">{}</text>'), (
        (LEFT, _n(_y(tick, scale)), WIDTH - RIGHT, _n(_y(tick, scale)),
         LEFT - 6, _n(_y(tick, scale) + 4), tick) for tick in scale.ticks))
    line = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    dots = format_html_join("", '<circle class="plot-dot" cx="{}" cy="{}" r="3.5"/>', (
        (_n(x), _n(y)) for x, y in points)) if count <= DOTS_UP_TO else ""
    last_x, last_y = points[-1]
    bottom = HEIGHT - BOTTOM
    return format_html(
        '<svg class="rating-plot" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="{id}-title" xmlns="http://www.w3.org/2000/svg">'
        '<title id="{id}-title">{title}</title>'
        '{grid}'
        '<line class="plot-axis" x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}"/>'
        '<text class="plot-rounds" x="{left}" y="{below}">{first}</text>'
        '<text class="plot-rounds end" x="{right}" y="{below}">{last}</text>'
        '<text class="plot-label" x="{middle}" y="{label}">{rounds_label}</text>'
        '<polyline class="plot-line" points="{line}"/>{dots}'
        '<text class="plot-latest" x="{lx}" y="{ly}">{latest}</text>'
        '</svg>',
        w=WIDTH, h=HEIGHT, id=plot_id, title=title, grid=grid, left=LEFT,
        right=WIDTH - RIGHT, bottom=bottom, below=bottom + 16, first=first_round,
        last=first_round + count - 1, middle=_n((LEFT + WIDTH - RIGHT) / 2),
        label=HEIGHT - 2, rounds_label=rounds_label, line=line, dots=dots,
        lx=_n(last_x + 6), ly=_n(last_y + 4), latest=ratings[-1])
