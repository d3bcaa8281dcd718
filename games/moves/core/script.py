"""A scripted game's first moves (`Game.script`): a lesson (games.learn) is the same for
everyone because its deal is fixed (the seed) and so are its first moves.

Move number v + 1 (made at version v) is `script[v]` while the script lasts: a bot and
the server at a missed deadline make that move instead of choosing one; a seat's player
must make it, or the move is refused (`off_script`) and nothing changes; a moderator's
move is free (they put a game right). After the script the game goes on as any other.
A scripted move the engine would refuse there (a moderator changed the game) is not
forced: the bot chooses its own.

Its own module: the move service and its tests read it; it knows no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games import engine
from games.engine.types import Move

OFF_SCRIPT = "off_script"
# Fields a move may leave out that mean the same as their default.
_DEFAULTS: dict[str, dict[str, Any]] = {"place": {"rotated": False}}


def scripted(script: Sequence[Move] | None, version: int) -> Move | None:
    """The move the script sets at `version` (before move number version + 1), or None
    past its end (or for a game without one)."""
    if not script or not 0 <= version < len(script):
        return None
    return script[version]


def _plain(move: Mapping[str, Any]) -> dict[str, Any]:
    """A move as it acts: without the seat (the service adds the mover's), with the
    defaults it left out filled in."""
    kind = str(move.get("type"))
    return {**_DEFAULTS.get(kind, {}),
            **{key: value for key, value in move.items() if key != "seat"}}


def follows(expected: Mapping[str, Any], move: Mapping[str, Any]) -> bool:
    """Whether `move` is the scripted move `expected`: the same fields, the seat aside;
    an action card's tool may be left out (the engine picks the one that fits)."""
    want, got = _plain(expected), _plain(move)
    if want.get("type") == "action" and "tool" not in got:
        want.pop("tool", None)
    return want == got


def check_seat_move(script: Sequence[Move] | None, version: int, move: Mapping[str, Any]) -> None:
    """Refuse a seat's move that is not the script's at `version` (engine.IllegalMove,
    code `off_script`, answered like any refused move: 422, nothing changed)."""
    expected = scripted(script, version)
    if expected is not None and not follows(expected, move):
        raise engine.IllegalMove(OFF_SCRIPT, "This game follows a script (a lesson): make "
                                 "the move its guide shows.")


def forced_move(script: Sequence[Move] | None, state: engine.State, version: int) -> Move | None:
    """The script's move for whoever is to act at `version` (a bot, the server), if the
    engine allows it there; None: choose as usual."""
    expected = scripted(script, version)
    if expected is None:
        return None
    legal = engine.legal_moves(state)
    return next((move for move in legal if follows(expected, move)), None)
