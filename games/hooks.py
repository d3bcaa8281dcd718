"""Follow-up work after a change to a game is committed: the seams for notifications.

`games.services` calls these through `transaction.on_commit`, so they run only once
the change is durable and never for a rolled-back one. They take ids, not model
instances, so they can hand straight over to Celery tasks. For now they only log;
the email issue (#4) fills them in (turn emails, invitations), without touching
the services.

Never log a seat link: it is the seat's credential.
"""

from __future__ import annotations

import logging

log = logging.getLogger("games")


def after_move_committed(game_id: int, version: int) -> None:
    """A move (by a seat, the system or a moderator) made the game reach `version`."""
    log.debug("game %s: move committed, now version %s", game_id, version)


def after_game_started(game_id: int) -> None:
    """The game left setup: seat `state.actor` is to act at version 0."""
    log.debug("game %s: started", game_id)


def send_invitation(seat_id: int, link: str) -> None:
    """Invite the player of `seat_id`: `link` is their private seat link (absolute URL).

    The link cannot be rebuilt later (only its hash is stored), so this is the one
    moment it can be mailed; a later resend must rotate the link.
    """
    log.debug("seat %s: invitation ready", seat_id)
