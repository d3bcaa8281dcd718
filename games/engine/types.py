"""Typed shapes of what the engine hands out: views, cards, log events, moves.

The views are plain JSON-ready dicts (the contract in games/engine/README.md); these
TypedDicts name their keys so code downstream (presentation, bots, the API) can be
checked by mypy. `total=False` marks keys that only some cards, events or rulesets carry.
`JSON` is the one alias for "a JSON object" in the project.
"""

from __future__ import annotations

from typing import Any, TypedDict

JSON = dict[str, Any]
Move = dict[str, Any]


class CardView(TypedDict, total=False):
    """A card in a hand, in front of a player or in the maze (exits after rotation)."""
    id: str
    kind: str  # "path", "action", "goal", "start"
    name: str
    exits: list[str]
    segments: list[list[str]]
    dead_end: bool
    tools: list[str]
    action: str
    goal: str | None  # null, "hidden", "gold" or "stone" (maze cells)
    revealed: bool
    shown: bool  # a goal face down when its round ended, shown since
    rotated: bool
    door: str  # Saboteur 2: "blue" or "green"
    door_segments: list[list[str]]
    ladder: bool
    crystals: int


class PlacedCard(TypedDict):
    x: int
    y: int
    card: CardView


class GoalView(TypedDict, total=False):
    goal: int
    x: int
    y: int
    revealed: bool
    status: str  # "hidden", "gold" or "stone"
    shown: bool  # face down when its round ended, shown since (present only then)


class PlayerView(TypedDict, total=False):
    seat: int
    hand_size: int
    in_front: list[CardView]
    gold: int  # your own, or everyone's at the end


class GoldCardView(TypedDict):
    id: str
    value: int


class RoundResult(TypedDict):
    round: int
    reason: str  # "gold" or "exhausted"
    finder: int | None
    winners: str
    roles: list[str]
    set_aside_roles: list[str]
    discarded_roles: list[str]
    goals: list[str]  # "gold" / "stone" under each goal, top to bottom ([]: older logs)


class LogEvent(TypedDict, total=False):
    """One log line as a seat may see it; `type` says which other keys it has (engine README)."""
    type: str
    round: int
    seat: int
    target: int | None
    card: str
    name: str
    x: int
    y: int
    rotated: bool
    tool: str
    goal: int
    result: str
    count: int
    reason: str
    finder: int | None
    winners: str
    winning_seats: list[int]
    roles: list[str]
    set_aside_roles: list[str]
    discarded_roles: list[str]
    goals: list[str]
    value: int


class SeatView(TypedDict, total=False):
    """`engine.view(state, seat)`: what one seat (or a spectator, seat None) may know."""
    ruleset: str
    options: JSON
    seats: int
    seat: int | None
    round: int
    rounds: int
    phase: str
    actor: int | None
    finished: bool
    deck_size: int
    discard_size: int
    board: list[PlacedCard]
    goals: list[GoalView]
    hand: list[CardView]
    role: str | None
    players: list[PlayerView]
    gold_offer_size: int
    gold_offer: list[GoldCardView]
    gold_cards: list[GoldCardView]
    log: list[LogEvent]
    round_results: list[RoundResult]
    scores: list[int] | None
    winners: list[int] | None
    # Saboteur 2
    crystals: int
    dwarves_aside: int
    inspected: dict[str, str]
