"""The errors every service raises: a stable `code`, a message for people, and the HTTP
status a door answers with (declared here, on the error classes, and read by one
function, `http_status`, whatever the door)."""

from __future__ import annotations

from typing import ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine


class ServiceError(Exception):
    """A refused operation: a stable `code` and a message for people; nothing changed.

    Its HTTP status: a code of `STATUS_OF_CODE`, else the class's `STATUS` (409: what the
    game or the player's state does not allow now), unless the service says it."""

    STATUS: ClassVar[int] = 409
    STATUS_OF_CODE: ClassVar[dict[str, int]] = {}

    def __init__(self, code: str, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or self.STATUS_OF_CODE.get(code, self.STATUS)

    def fields(self) -> dict[str, object]:
        """What a JSON answer's error carries besides its code and message."""
        return {}


def http_status(refused: Exception) -> int:
    """The status a door answers a refusal with: the engine's (400 a move of a wrong
    shape, 422 a move the rules do not allow) or the service error's own."""
    if isinstance(refused, engine.MalformedMove):  # a subclass of IllegalMove: first
        return 400
    if isinstance(refused, engine.IllegalMove):
        return 422
    if isinstance(refused, ServiceError):
        return refused.status
    return 500


class StaleVersion(ServiceError):
    """The submission was made against an older version of the game."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__("stale_version", stale_message(expected, current))
        self.expected = expected
        self.current = current

    def fields(self) -> dict[str, object]:
        return {"version": self.current}  # the version to look at again


def stale_message(expected: int, current: int) -> str:
    """Why a move was not made, in players' words (the API also gives the version)."""
    if current > expected:
        return ngettext(
            "Someone played %(n)s move since you loaded this page, so yours was not made. "
            "Look at the game again and choose your move.",
            "Someone played %(n)s moves since you loaded this page, so yours was not made. "
            "Look at the game again and choose your move.",
            current - expected) % {"n": current - expected}
    return _("Your page does not show the game as it is now, so your move was not made. "
             "Look at the game again and choose your move.")


class GameNotPlayable(ServiceError):
    """The game is not accepting moves (not started, paused, over, cancelled)."""

    STATUS = 422


class SetupError(ServiceError):
    """A game could not be created as asked; nothing was created."""

    STATUS = 400
