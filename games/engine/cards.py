"""Cards as data. Every card has a stable id; rules look cards up here.

Ids: `start`; `goal-0`, `goal-1`, `goal-2` name the goal *positions* (top, middle,
bottom), never their content, so a face-down goal's id leaks nothing; `p01`...
path (tunnel) cards; `a01`... action cards; `gold-01`... gold cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .geometry import mask_of, rotate180

TOOLS: tuple[str, ...] = ("pickaxe", "lantern", "cart")


@dataclass(frozen=True)
class Segment:
    """One connected tunnel system inside a card: the exits it reaches."""

    exits: int
    door: str | None = None  # "blue" / "green" (Saboteur 2)
    ladder: bool = False  # connected to the start and to every other ladder

    def rotated(self) -> Segment:
        return Segment(rotate180(self.exits), self.door, self.ladder)


@dataclass(frozen=True)
class CardSpec:
    id: str
    kind: str  # "path" | "action" | "start" | "goal"
    name: str
    segments: tuple[Segment, ...] = ()
    action: str | None = None  # "break", "repair", "rockfall", "map", ... (action cards)
    tools: tuple[str, ...] = ()  # tools a break/repair card names
    crystals: int = 0
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @cached_property
    def exits(self) -> int:
        mask = 0
        for segment in self.segments:
            mask |= segment.exits
        return mask

    def oriented(self, rotated: bool) -> tuple[Segment, ...]:
        """Segments after an optional 180-degree turn (the only turn allowed)."""
        return self._rotated_segments if rotated else self.segments

    @cached_property
    def _rotated_segments(self) -> tuple[Segment, ...]:
        return tuple(segment.rotated() for segment in self.segments)

    def oriented_exits(self, rotated: bool) -> int:
        return rotate180(self.exits) if rotated else self.exits

    @cached_property
    def special(self) -> bool:
        """Has a door or a ladder: placement needs more than the edge bitmasks."""
        return any(s.door or s.ladder for s in self.segments)

    @property
    def is_path(self) -> bool:
        return self.kind == "path"

    @property
    def dead_end(self) -> bool:
        """True when no segment links two exits (every exit its own segment)."""
        return self.kind == "path" and all(bin(s.exits).count("1") < 2 and not s.ladder
                                           for s in self.segments)


def connected(*exits: str, door: str | None = None, ladder: bool = False) -> Segment:
    return Segment(mask_of(exits), door, ladder)


def dead(*exits: str) -> tuple[Segment, ...]:
    """A dead end: every exit reaches the edge, none reaches another."""
    return tuple(Segment(mask_of(e)) for e in exits)



def _tunnel_name(exits: tuple[str, ...]) -> str:
    label = "-".join(exits)
    return {2: "Tunnel" if set(exits) in ({"N", "S"}, {"E", "W"}) else "Curve", 3: "T-junction",
            4: "Crossroads"}[len(exits)] + ("" if len(exits) == 4 else f" {label}")


# (exits, count) of the base game's connected tunnel cards (RULES.md Part 1).
BASE_TUNNELS: tuple[tuple[tuple[str, ...], int], ...] = (
    (("N", "S"), 4),
    (("E", "W"), 3),
    (("N", "E"), 5),
    (("N", "W"), 4),
    (("N", "E", "S"), 5),
    (("E", "S", "W"), 5),
    (("N", "E", "S", "W"), 5),
)
BASE_DEAD_ENDS: tuple[tuple[str, ...], ...] = (
    ("N",), ("E",), ("N", "S"), ("E", "W"), ("N", "E"), ("N", "W"),
    ("N", "E", "S"), ("E", "S", "W"), ("N", "E", "S", "W"),
)

# (action, tools, name, count) of the base game's action cards.
BASE_ACTIONS: tuple[tuple[str, tuple[str, ...], str, int], ...] = (
    ("break", ("pickaxe",), "Broken pickaxe", 3),
    ("break", ("lantern",), "Broken lantern", 3),
    ("break", ("cart",), "Broken cart", 3),
    ("repair", ("pickaxe",), "Repair pickaxe", 2),
    ("repair", ("lantern",), "Repair lantern", 2),
    ("repair", ("cart",), "Repair cart", 2),
    ("repair", ("pickaxe", "lantern"), "Repair pickaxe or lantern", 1),
    ("repair", ("pickaxe", "cart"), "Repair pickaxe or cart", 1),
    ("repair", ("lantern", "cart"), "Repair lantern or cart", 1),
    ("rockfall", (), "Rockfall", 3),
    ("map", (), "Map", 6),
)

START = CardSpec("start", "start", "Start", (connected("N", "E", "S", "W"),))
# Goal contents; the card a goal position shows is chosen by the round's shuffle.
GOAL_CONTENTS: dict[str, CardSpec] = {
    "gold": CardSpec("gold", "goal", "Gold", (connected("N", "E", "S", "W"),)),
    "stone-nw": CardSpec("stone-nw", "goal", "Stone", (connected("N", "W"),)),
    "stone-ne": CardSpec("stone-ne", "goal", "Stone", (connected("N", "E"),)),
}
GOAL_CELLS: tuple[tuple[int, int], ...] = ((8, -2), (8, 0), (8, 2))
GOAL_IDS: tuple[str, ...] = ("goal-0", "goal-1", "goal-2")

# Gold cards: 16 x 1, 8 x 2, 4 x 3 nuggets.
GOLD_VALUES: dict[str, int] = {
    f"gold-{i + 1:02d}": value
    for i, value in enumerate([1] * 16 + [2] * 8 + [3] * 4)
}


def base_path_cards() -> list[CardSpec]:
    cards: list[CardSpec] = []
    for exits, count in BASE_TUNNELS:
        for _ in range(count):
            cards.append(CardSpec("", "path", _tunnel_name(exits), (connected(*exits),)))
    for exits in BASE_DEAD_ENDS:
        cards.append(CardSpec("", "path", "Dead end " + "-".join(exits), dead(*exits)))
    return [_with_id(card, f"p{i + 1:02d}") for i, card in enumerate(cards)]


def base_action_cards() -> list[CardSpec]:
    cards: list[CardSpec] = []
    for action, tools, name, count in BASE_ACTIONS:
        cards.extend(CardSpec("", "action", name, action=action, tools=tools) for _ in range(count))
    return [_with_id(card, f"a{i + 1:02d}") for i, card in enumerate(cards)]


def _with_id(card: CardSpec, card_id: str) -> CardSpec:
    return CardSpec(card_id, card.kind, card.name, card.segments, card.action, card.tools,
                    card.crystals, dict(card.extra))


def catalogue(cards: list[CardSpec]) -> dict[str, CardSpec]:
    by_id = {card.id: card for card in cards}
    if len(by_id) != len(cards):
        raise ValueError("duplicate card ids")
    return by_id
