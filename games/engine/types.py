"""Typed shapes of what the engine hands out: views, cards, log events, moves.

The views are plain JSON-ready dicts (the contract in games/engine/README.md); these
TypedDicts name their keys so code downstream (presentation, bots, the API) can be
checked by mypy. `total=False` marks keys that only some cards, events or rulesets carry.
`JSON` is the one alias for "a JSON object" in the project.
"""

from __future__ import annotations

from typing import Any, Required, TypedDict

JSON = dict[str, Any]


class Move(TypedDict, total=False):
    """A move as `legal_moves` lists it and `apply` takes it (engine README "Moves"): a
    `type`, and the fields that type has. `apply` checks an untrusted dict against the
    shapes before any rule reads it."""
    type: Required[str]  # "place", "action", "rockfall", "map", "pass", "free", ...
    seat: int  # the seat that moves (the server always sends the seat of the link)
    card: str | None  # null only for a pass with an empty hand
    cards: list[str]  # Saboteur 2: pass and free
    x: int
    y: int
    rotated: bool
    target: int
    tool: str
    goal: int
    remove: str  # Saboteur 2: free


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
    content: str  # "gold" or "stone": the moderator view only


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
    winners: str | list[int]  # round_end: the team that won; game_end: the winning seats
    winning_seats: list[int]
    roles: list[str]
    set_aside_roles: list[str]
    discarded_roles: list[str]
    goals: list[str]
    value: int
    why: str  # payout: what it pays for
    first: int  # round_start: the seat to play first
    removed: str  # a card taken away (rockfall, free)
    removed_name: str
    role: str  # inspection, swap_hats
    cards: list[str]  # pass, free: the cards discarded
    scores: list[int]  # game_end
    secret_to: list[int]  # the moderator view: whom the secret fields were meant for


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
    log: list[LogEvent] | None  # None only when asked for without it (log=False)
    round_results: list[RoundResult]
    scores: list[int] | None
    winners: list[int] | None
    # Saboteur 2
    crystals: int
    dwarves_aside: int
    inspected: dict[str, str]


class ModeratorView(SeatView, total=False):
    """`engine.moderator_view(state)`: the spectator's view with the whole truth added."""
    hands: list[list[CardView]]
    roles: list[str]
    roles_aside: list[str]
    deck_top_first: list[CardView]
    discard: list[CardView]
    set_aside: list[CardView]
    known_goals: list[list[int]]
    gold_pile_top_first: list[GoldCardView]
    gold_won: list[list[GoldCardView]]
    # Saboteur 2
    theft_order: list[int]
    hats_discarded: list[str]
