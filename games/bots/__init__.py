"""Bots for Saboteur and Saboteur 2: pure Python, no Django, like the engine.

    choose_move(view, legal_moves, seed, level="normal") -> one of legal_moves

A bot sees only its seat's view (`games.engine.view(state, seat)`), so it cannot cheat
by construction; the same view, moves, seed and level always give the same move.

Levels: "normal" scores every legal move (games/bots/normal.py, scoring.py, s2.py) from
the bot's role, the maze and what the public log says about the other players, and
plays the best; "strong" (games/bots/strong/) adds a belief over every other seat's role
and looks ahead by playing sampled worlds forward.
"""

from __future__ import annotations

from games.engine.types import Move, SeatView

from .normal import choose_normal
from .strong import Budget, choose_strong

__all__ = ["LEVELS", "Budget", "choose_move"]

LEVELS = ("normal", "strong")


def choose_move(view: SeatView, legal_moves: list[Move], seed: int,
                level: str = "normal", budget: Budget | None = None) -> Move:
    """The move this seat's bot plays at `level`: always an element of `legal_moves`.
    `budget`: the strong level's work and wall-clock net (games.bots.strong.budget)."""
    if level == "strong":
        return choose_strong(view, legal_moves, seed, budget)
    if level != "normal":
        raise ValueError(f"unknown bot level {level!r}; known: {LEVELS}")
    return choose_normal(view, legal_moves, seed)
