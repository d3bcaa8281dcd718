"""What a move tells the features above it (games.kit.events; who listens: games.wiring): a
turn ends and the next begins; a round ends; the game ends (by its last move, or by
whoever cancels it). Published while the move is applied, with the
game's row locked and before it is written, so what a listener sets on the game (the clock:
the ended turn's bank, the new turn's deadline) is written with the move. And a moderator's
undo took moves back (`MovesUndone`), published after the undo is written."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from games.game.core.game import Game
from games.moves.core.move_store_types import SeatRow


@dataclass(frozen=True)
class TurnEnding:
    """The seat to act (`game.actor`, before the move) has moved, or the server moved for it."""

    game: Game
    now: datetime
    seats: Mapping[int, SeatRow]


@dataclass(frozen=True)
class TurnBeginning:
    """`game.actor` (after the move; None when the game ended) is to act from `now`."""

    game: Game
    now: datetime
    seats: Mapping[int, SeatRow]


@dataclass(frozen=True)
class RoundEnded:
    """The move ended a round (or several events of it: the gold shared, the game over),
    or the game (its last gold handed out after its last round ended a move before);
    published with the move, in its transaction, so what a listener writes (the ratings'
    outbox row) commits with the move or not at all."""

    game: Game
    now: datetime


@dataclass(frozen=True)
class GameEnded:
    """The game is over: finished by its last move (`cancelled` False), or cancelled.
    Published in the transaction that ends it, with the game's row locked and
    `game.status` already the end's; a move's game row is written after its listeners
    ran: read the game from the event, not the database."""

    game: Game
    now: datetime
    cancelled: bool = False


@dataclass(frozen=True)
class MovesUndone:
    """A moderator's undo dropped every move after `to_version` (the game was at
    `from_version`) and replayed the rest; `game` is as the undo left it, its row written,
    locked. `undoes_round_end` and `undoes_game_end`: a dropped move had ended a round, the
    game. Published in the undo's transaction: what a listener writes commits with it."""

    game: Game
    now: datetime
    to_version: int
    from_version: int
    undoes_round_end: bool
    undoes_game_end: bool
