"""The errors every service raises: a stable `code` and a message for people."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


class ServiceError(Exception):
    """A refused operation: a stable `code` and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class StaleVersion(ServiceError):
    """The submission was made against an older version of the game."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__("stale_version", stale_message(expected, current))
        self.expected = expected
        self.current = current


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


class SetupError(ServiceError):
    """A game could not be created as asked; nothing was created."""
