"""Moderation: the services behind the admin's game page and the dispute form.

Every function here changes a game the way `games.moves.services.seat_services` does (one
transaction, the Game row locked) and writes a ModeratorAction with who, when, why and what
changed; the admin views only check permissions, collect a reason and call these.

    undo.plan_undo / undo.undo_to          undo to move N (replay from the seed)
    seats.replace_player                   a new player for a seat (new link, invitation)
    seats.rotate_seat_link                 a new link, mailed to the seat's player
    seats.moderator_move                   a legal move for the seat to act
    seats.resend_turn_email                the turn email again
    bot_seats.hand_to_bot / hand_to_person a bot plays an absent player's seat, and back
    bot_seats.set_bot_level                how the game's bots play (normal / strong)
    game_clock.extend_deadline / pause_game / resume / cancel
    integrity.verify_integrity             replay equals snapshot, or where not
    dispute_acts.file_dispute / resolve_dispute
    talk_reports.report_talk               a player reports a line of table talk
    secrets_viewed                         record that a moderator looked
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from games.game.core.game import Game
from games.moderation.core.moderation_rows import ModeratorAction
from games.moderation.services.acts import KINDS, ModerationError
from games.moderation.services.bot_seats import hand_to_bot, hand_to_person, set_bot_level
from games.moderation.services.dispute_acts import file_dispute, resolve_dispute
from games.moderation.services.game_clock import (
    MAX_EXTENSION,
    cancel,
    extend_deadline,
    pause_game,
    resume,
)
from games.moderation.services.integrity import IntegrityReport, verify_integrity
from games.moderation.services.seats import (
    legal_for_actor,
    moderator_move,
    replace_player,
    resend_turn_email,
    rotate_seat_link,
)
from games.moderation.services.undo import UndoPlan, plan_undo, undo_to
from games.seatview.core.words import OUTCOMES

__all__ = [
    "KINDS", "MAX_EXTENSION", "OUTCOMES", "IntegrityReport", "ModerationError", "UndoPlan",
    "cancel", "extend_deadline", "file_dispute", "hand_to_bot",
    "hand_to_person", "legal_for_actor", "moderator_move", "pause_game",
    "plan_undo", "replace_player", "resend_turn_email", "resolve_dispute", "resume",
    "rotate_seat_link", "secrets_viewed", "set_bot_level", "undo_to", "verify_integrity",
]


# One "looked at the secrets" row per moderator and game per hour: a reload, or the page
# shown again after an action, is the same look.
LOOK_RECORDED_FOR = timedelta(hours=1)


def secrets_viewed(game: Game, moderator: User, what: str = "moderation page") -> ModeratorAction:
    """Looking at a game's secrets is itself on the record (once an hour per moderator)."""
    recent = ModeratorAction.objects.filter(
        game=game, moderator=moderator, kind="view_secrets",
        created_at__gte=timezone.now() - LOOK_RECORDED_FOR).order_by("-created_at").first()
    if recent is not None:
        return recent
    return ModeratorAction.objects.create(game=game, moderator=moderator, kind="view_secrets",
                                          reason=what, details={"version": game.version})
