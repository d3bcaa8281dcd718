"""Saboteur 2's cards in the email maze (`games.seatview.core.maze_drawing`), from a view's card
JSON.

On the 3 x 3 grid of a card: a door colours its tunnel's hub blue or green and marks it
with its shape, as the seat page draws it ("●" round for blue, "◆" a diamond for green:
the colour is not told by hue alone); a ladder
is a brown hub marked "H" (its tunnels, a single exit included, run to it); a bridge
has a darker hub (its two tunnels cross without joining); a double curve leaves the
hub as rock and joins its arms through the corners; a crystal is a violet corner.
In plain text: "H" a ladder, "b"/"g" a blue/green door, "╬" a bridge, "╳" a double
curve.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.types import JSON

# (door colour, door segments, ladder, crystals): what the grid needs beyond segments.
# A card to draw: a view's card (engine.types.CardView) or a face put together here from
# a cached key; read only.
Card = Mapping[str, Any]
Extras = tuple[str | None, tuple[tuple[str, ...], ...], bool, int]

# Dark enough for 3:1 against the tunnel's sand, and for the white mark on them.
DOOR = {"blue": "#1251a3", "green": "#1b5e20"}
DOOR_MARK = {"blue": "●", "green": "◆"}
LADDER = "#8d6e63"
BRIDGE = "#c9a24e"
CRYSTAL = "#9c6ade"
ROCK = "#7a5a3a"

ARM = {"N": (0, 1), "E": (1, 2), "S": (2, 1), "W": (1, 0)}


def extras(card: Card) -> Extras:
    return (card.get("door"), tuple(tuple(s) for s in card.get("door_segments", [])),
            bool(card.get("ladder")), int(card.get("crystals") or 0))


def fields(key: Extras) -> JSON:
    """The card JSON fields an `Extras` stands for (the inverse of `extras`)."""
    door, door_segments, ladder, crystals = key
    data: JSON = {"crystals": crystals}
    if door:
        data.update(door=door, door_segments=[list(s) for s in door_segments])
    if ladder:
        data["ladder"] = True
    return data


def _straight(segment: list[str]) -> bool:
    return set(segment) in ({"N", "S"}, {"E", "W"})


def overlay(card: Card, grid: list[list[str]], tunnel: str) -> None:
    """Draw the expansion's features over the grid of a card's tunnels."""
    segments: list[list[str]] = card.get("segments", [])
    joined = [s for s in segments if len(s) >= 2]
    if card.get("ladder"):
        for segment in segments:
            for exit_ in segment:
                row, col = ARM[exit_]
                grid[row][col] = tunnel
        grid[1][1] = LADDER
    elif len(joined) == 2 and all(_straight(s) for s in joined):
        grid[1][1] = BRIDGE
    elif len(joined) == 2:
        grid[1][1] = ROCK
        for segment in joined:
            vertical = next(e for e in segment if e in "NS")
            horizontal = next(e for e in segment if e in "EW")
            grid[ARM[vertical][0]][ARM[horizontal][1]] = tunnel
    if card.get("door"):
        grid[1][1] = DOOR.get(str(card["door"]), grid[1][1])
    if card.get("crystals"):
        corner = (0, 2) if grid[0][2] == ROCK else (2, 0)
        grid[corner[0]][corner[1]] = CRYSTAL


def mark(card: Card) -> str:
    """The sign on the card's hub: "H" for a ladder, a door's shape for a door."""
    if card.get("ladder"):
        return "H"
    return DOOR_MARK.get(str(card.get("door") or ""), "")


def char(card: Card) -> str | None:
    """One character for an expansion card in the plain-text maze, or None."""
    segments: list[list[str]] = card.get("segments", [])
    joined = [s for s in segments if len(s) >= 2]
    if card.get("ladder"):
        return "H"
    if card.get("door"):
        return "b" if card["door"] == "blue" else "g"
    if len(joined) == 2:
        return "╬" if all(_straight(s) for s in joined) else "╳"
    return None
