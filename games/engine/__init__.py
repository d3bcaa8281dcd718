"""The Saboteur rules engine: pure Python, no Django. See DESIGN.md "Engine API".

    new_game(seats, seed, ruleset="base", options=None) -> State
    legal_moves(state) -> list[Move]
    apply(state, move) -> State            pure; raises IllegalMove / MalformedMove
    view(state, seat) -> SeatView          seat=None: spectator
    seat_event(event, seat, finished)      one log event as a seat's view shows it
    moderator_view(state) -> ModeratorView the whole truth, for moderators only
    replay(seats, seed, moves, ruleset, options) -> State
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import IllegalMove, MalformedMove
from .rules import RULESETS, rules_for
from .state import State
from .types import (
    JSON,
    CardView,
    LogEvent,
    ModeratorView,
    Move,
    PlacedCard,
    RoundResult,
    SeatView,
)
from .views import card_json, moderator_view, seat_event
from .views import seat_view as _seat_view

__all__ = [
    "JSON",
    "RULESETS",
    "CardView",
    "IllegalMove",
    "LogEvent",
    "MalformedMove",
    "ModeratorView",
    "Move",
    "PlacedCard",
    "RoundResult",
    "SeatView",
    "State",
    "apply",
    "card_json",
    "legal_moves",
    "moderator_view",
    "new_game",
    "replay",
    "rules_for",
    "seat_event",
    "view",
]


def new_game(seats: int, seed: int, ruleset: str = "base",
             options: dict[str, Any] | None = None) -> State:
    """A new game at the start of round 1, seat 0 to act. Raises ValueError on bad setup."""
    return rules_for(ruleset).new_game(seats, seed, options)


def legal_moves(state: State) -> list[Move]:
    """Every legal move of the seat to act (path placements over cell and rotation)."""
    return rules_for(state.ruleset).legal_moves(state)


def apply(state: State, move: Mapping[str, object]) -> State:
    """The state after `move` by `state.actor`; `state` itself is never changed. `move`
    may be any JSON object (a player's input): it is checked to be a `Move` first."""
    return rules_for(state.ruleset).apply(state, move)


def view(state: State, seat: int | None, *, log: bool = True) -> SeatView:
    """What `seat` may know, JSON-ready; None gives the spectator view. `log=False`
    leaves the `log` key None, for a caller that builds it from `seat_event` itself."""
    return _seat_view(state, seat, log=log)


def replay(seats: int, seed: int, moves: Iterable[Mapping[str, object]], ruleset: str = "base",
           options: dict[str, Any] | None = None) -> State:
    """Rebuild a game from its seed and move log (the Move table is the truth)."""
    state = new_game(seats, seed, ruleset, options)
    for move in moves:
        state = apply(state, move)
    return state
