"""Edges, directions and 180-degree rotation, as bitmasks.

Exits are stored as 4-bit masks (N=1, E=2, S=4, W=8) so that edge matching in the
legal-move generator is a couple of integer operations per card and cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

N, E, S, W = 1, 2, 4, 8
DIRECTIONS: tuple[int, ...] = (N, E, S, W)
NAMES: dict[int, str] = {N: "N", E: "E", S: "S", W: "W"}
BY_NAME: dict[str, int] = {v: k for k, v in NAMES.items()}
WORDS: dict[int, str] = {N: "north", E: "east", S: "south", W: "west"}
OPPOSITE: dict[int, int] = {N: S, S: N, E: W, W: E}
# y grows downwards (DESIGN.md): north is y - 1.
DELTA: dict[int, tuple[int, int]] = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}

Cell = tuple[int, int]


def rotate180(mask: int) -> int:
    """Turn a mask half round: N<->S and E<->W (N=1->S=4, E=2->W=8 and back)."""
    return ((mask << 2) | (mask >> 2)) & 15


def mask_of(names: Iterable[str]) -> int:
    mask = 0
    for name in names:
        mask |= BY_NAME[name]
    return mask


def names_of(mask: int) -> list[str]:
    """Exit names in the fixed order N, E, S, W."""
    return [NAMES[d] for d in DIRECTIONS if mask & d]


def bits(mask: int) -> Iterator[int]:
    for d in DIRECTIONS:
        if mask & d:
            yield d


def neighbour(cell: Cell, direction: int) -> Cell:
    dx, dy = DELTA[direction]
    return (cell[0] + dx, cell[1] + dy)
