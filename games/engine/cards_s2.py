"""The Saboteur 2 expansion's cards (RULES.md Part 2), as data.

Ids continue the base game's: paths p41..p70, actions a28..a48.
"""

from __future__ import annotations

from .cards import CardSpec, Segment, _with_id, connected, dead
from .geometry import mask_of, names_of

# (segments, count, crystals, label) -- a label names cards the segments cannot.
S2_PATHS: tuple[tuple[tuple[Segment, ...], int, int, str], ...] = (
    ((connected("N", "S"), connected("E", "W")), 2, 0, "Bridge"),
    ((connected("N", "W"), connected("S", "E")), 1, 0, "Double curve"),
    ((connected("N", "E"), connected("S", "W")), 1, 0, "Double curve"),
    ((connected("S", ladder=True),), 1, 0, ""),
    ((connected("W", ladder=True),), 1, 0, ""),
    ((connected("E", "S", ladder=True),), 1, 0, ""),
    ((connected("N", "E", ladder=True),), 1, 0, ""),
    ((connected("E", "S", door="green"),), 1, 0, ""),
    ((connected("E", "W", door="green"),), 1, 0, ""),
    ((connected("N", "S", door="green"), *dead("E")), 1, 0, ""),
    ((connected("N", "S", door="blue"),), 1, 0, ""),
    ((connected("E", "W", door="blue"),), 1, 0, ""),
    ((connected("S", "W", door="blue"),), 1, 0, ""),
    ((connected("N", "E"), *dead("S")), 1, 0, ""),
    ((connected("N", "S"), *dead("E", "W")), 1, 0, ""),
    ((connected("E", "W"), *dead("N", "S")), 1, 0, ""),
    ((connected("N", "S"), *dead("E")), 1, 0, ""),
    ((connected("E", "S"), *dead("N")), 2, 0, ""),
    (dead("W"), 1, 1, ""),
    (dead("S"), 1, 1, ""),
    ((connected("E", "S", "W"),), 3, 1, ""),
    ((connected("E", "S", "W"), *dead("N")), 1, 1, ""),
    ((connected("N", "E", "S"),), 1, 1, ""),
    ((connected("N", "S", "W"), *dead("E")), 1, 1, ""),
    ((connected("N", "E", "S", "W"),), 1, 1, ""),
    ((connected("E", "W"), *dead("S")), 1, 1, ""),
)

# (action, name, count)
S2_ACTIONS: tuple[tuple[str, str, int], ...] = (
    ("theft", "Theft", 4),
    ("hands_off", "Hands off", 3),
    ("swap_hand", "Swap your hand", 2),
    ("inspection", "Inspection", 2),
    ("swap_hats", "Swap your hats", 2),
    ("trapped", "Trapped", 3),
    ("free_at_last", "Free at last", 4),
    ("rockfall", "Rockfall", 1),
)

BLUE, GREEN = "blue-digger", "green-digger"
BOSS, PROFITEER, GEOLOGIST, SABOTEUR = "boss", "profiteer", "geologist", "saboteur"
S2_DWARVES: tuple[tuple[str, int], ...] = (
    (BLUE, 4), (GREEN, 4), (BOSS, 1), (PROFITEER, 1), (GEOLOGIST, 2), (SABOTEUR, 3),
)


def _label(segments: tuple[Segment, ...], label: str, crystals: int) -> str:
    """A readable name from the tunnels: 'Blue door N-S', 'Ladder E-S', 'T N-S-W + stub E'."""
    joined = [s for s in segments if bin(s.exits).count("1") > 1]
    stubs = [s for s in segments if bin(s.exits).count("1") == 1]
    if label:
        name = label
    elif any(s.ladder for s in segments):
        name = "Ladder " + "-".join(names_of(segments[0].exits))
        stubs = []
    elif any(s.door for s in segments):
        door = next(s for s in segments if s.door)
        name = f"{str(door.door).title()} door " + "-".join(names_of(door.exits))
    elif not joined:
        name = "Dead end " + "-".join(names_of(mask_of(n for s in stubs
                                                       for n in names_of(s.exits))))
        stubs = []
    else:
        exits = names_of(joined[0].exits)
        kind = {2: "Tunnel" if set(exits) in ({"N", "S"}, {"E", "W"}) else "Curve",
                3: "T-junction", 4: "Crossroads"}[len(exits)]
        name = kind + ("" if len(exits) == 4 else " " + "-".join(exits))
    if stubs and not label:
        name += " + stub " + ", ".join(n for s in stubs for n in names_of(s.exits))
    if crystals:
        name += " (crystal)"
    return name


def s2_path_cards() -> list[CardSpec]:
    cards: list[CardSpec] = []
    for segments, count, crystals, label in S2_PATHS:
        name = _label(segments, label, crystals)
        cards.extend(CardSpec("", "path", name, segments, crystals=crystals)
                     for _ in range(count))
    return [_with_id(card, f"p{41 + i:02d}") for i, card in enumerate(cards)]


def s2_action_cards() -> list[CardSpec]:
    cards: list[CardSpec] = []
    for action, name, count in S2_ACTIONS:
        cards.extend(CardSpec("", "action", name, action=action) for _ in range(count))
    return [_with_id(card, f"a{28 + i:02d}") for i, card in enumerate(cards)]


def s2_dwarves() -> list[str]:
    return [role for role, count in S2_DWARVES for _ in range(count)]
