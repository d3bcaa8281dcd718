"""What every moderation service shares: the game lock, the reason, the record.

Each moderator act runs in one transaction with the Game row locked (the pattern of
`games.moves.services.seat_services`), writes a ModeratorAction (who, when, why, what changed) and,
when the table should know, a neutral GameNotice. The notice parameters hold only facts
every seat may know: seat numbers, public names, move numbers, hours, and the
moderator's optional note for the table (never the private reason).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.game.core.game import Game
from games.moderation.core.moderation_rows import ModeratorAction
from games.moves.services.moves import queue_bot_turn
from games.moves.services.seat_services import ServiceError

MAX_REASON = 2000
MAX_PUBLIC_NOTE = 200


class ModerationError(ServiceError):
    """A refused moderator act: nothing was changed."""


# ModeratorAction.kind values, with their labels for the admin.
KINDS = {
    "view_secrets": gettext_lazy("looked at the secrets"),
    "undo": gettext_lazy("undo"),
    "replace_player": gettext_lazy("replace a player"),
    "extend_deadline": gettext_lazy("extend the deadline"),
    "pause": gettext_lazy("pause"),
    "resume": gettext_lazy("resume"),
    "cancel": gettext_lazy("cancel"),
    "moderator_move": gettext_lazy("move for a seat"),
    "resend_turn_email": gettext_lazy("resend the turn email"),
    "rotate_link": gettext_lazy("new link for a seat"),
    "hand_to_bot": gettext_lazy("hand a seat to a bot"),
    "hand_to_person": gettext_lazy("give a seat back to its player"),
    "verify": gettext_lazy("verify integrity"),
    "resolve_dispute": gettext_lazy("resolve a dispute"),
    "open_seat": gettext_lazy("look for a new player for a seat"),
    "assign_seat": gettext_lazy("give an open seat to a new player"),
    "bot_level": gettext_lazy("change how the bots play"),
}


@contextmanager
def locked_game(game_id: int) -> Iterator[Game]:
    """The Game row, locked until the end of the transaction this opens."""
    with transaction.atomic():
        try:
            game = Game.objects.select_for_update().get(pk=game_id)
        except Game.DoesNotExist:
            raise ModerationError("no_game", _("There is no such game.")) from None
        yield game


def clean_reason(reason: str) -> str:
    """The moderator's reason, required: it is kept with the action."""
    reason = (reason or "").strip()
    if not reason:
        raise ModerationError("reason_required",
                              _("Give a reason: it is kept with the action."))
    if len(reason) > MAX_REASON:
        raise ModerationError("reason_too_long", _("The reason is too long (at most "
                                                   "%(max)s characters).") % {"max": MAX_REASON})
    return reason


def clean_note(note: str) -> str:
    """The optional note every seat sees next to the neutral line."""
    note = " ".join((note or "").split())
    if len(note) > MAX_PUBLIC_NOTE:
        raise ModerationError("note_too_long", _("The note for the table is too long (at most "
                                                 "%(max)s characters).") % {"max": MAX_PUBLIC_NOTE})
    return note


def record(game: Game, moderator: User, kind: str, reason: str, **details: Any) -> ModeratorAction:
    """Write the ModeratorAction for an act (inside the act's transaction)."""
    assert kind in KINDS, kind
    return ModeratorAction.objects.create(
        game=game, moderator=moderator, kind=kind, reason=reason, details=details)


def bot_moves_if_due(game: Game) -> None:
    """After the act commits, a bot holding the seat to act moves (games.moves.services.moves)."""
    queue_bot_turn(game.pk, game.version)


def require_status(game: Game, *allowed: str) -> None:
    if game.status not in allowed:
        raise ModerationError(
            "wrong_status",
            _("Not possible while the game is %(status)s.")
            % {"status": Game.Status(game.status).label})
