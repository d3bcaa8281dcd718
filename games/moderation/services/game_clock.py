"""The game clock and its status: extend a deadline, pause, resume, cancel.

An extension is added to `Game.deadline_extension` as well as to the deadline (to
now, when the deadline has passed and the game waits on the moderators); the
services reset it when the next turn starts, so the cap (MAX_EXTENSION per turn)
keeps any one turn from wedging a game. Pausing remembers the time left on the
clock; resuming sets the deadline from it (at least MIN_TIME_AFTER_RESUME, so a
resumed turn is not already overdue).
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clock.services.turn_clock import set_deadline
from games.game.core.game import Game
from games.game.core.talk_and_notices import GameNotice
from games.kit.events import publish
from games.moderation.services.acts import (
    ModerationError,
    bot_moves_if_due,
    clean_note,
    clean_reason,
    locked_game,
    record,
    require_status,
)
from games.moves.core.turn_events import GameEnded
from games.talk.services.notices import tell_table

MAX_EXTENSION = timedelta(days=7)
MIN_TIME_AFTER_RESUME = timedelta(hours=1)


def hours(delta: timedelta | None) -> float:
    return round((delta or timedelta()).total_seconds() / 3600, 2)


def extension_left(game: Game) -> timedelta:
    return max(MAX_EXTENSION - game.deadline_extension, timedelta())


def extend_deadline(game_id: int, extra_hours: int, *, moderator: User, reason: str,
                    public_note: str = "") -> Game:
    """Give the seat to act `extra_hours` more, within MAX_EXTENSION per turn."""
    reason, public_note = clean_reason(reason), clean_note(public_note)
    with locked_game(game_id) as game:
        require_status(game, Game.Status.ACTIVE)
        if game.deadline_at is None:
            raise ModerationError("no_deadline", _("Nobody is on the clock in this game."))
        extra = timedelta(hours=extra_hours)
        left = extension_left(game)
        if extra_hours < 1 or extra > left:
            raise ModerationError("extension_capped", _(
                "A turn can be extended by at most %(max)s hours in total; %(left)s hours "
                "are left for this turn.") % {"max": hours(MAX_EXTENSION), "left": hours(left)})
        old = game.deadline_at
        now = timezone.now()
        # From the deadline, or from now when it has passed (a game that waits on a
        # moderator): either way the seat gets `extra_hours` more to play.
        fields = set_deadline(game, max(old, now) + extra, now)
        game.deadline_extension += extra
        game.save(update_fields=[*fields, "deadline_extension", "updated_at"])
        record(game, moderator, "extend_deadline", reason, seat=game.actor, hours=extra_hours,
               old_deadline=old.isoformat(), new_deadline=game.deadline_at.isoformat(),
               extension_this_turn_hours=hours(game.deadline_extension))
        tell_table(game, GameNotice.Kind.MODERATOR, action="extend", seat=game.actor,
                   hours=extra_hours, note=public_note)
    return game


def pause_game(game_id: int, *, moderator: User, reason: str, public_note: str = "") -> Game:
    """Stop the clock; nobody can move until a moderator resumes the game."""
    reason, public_note = clean_reason(reason), clean_note(public_note)
    with locked_game(game_id) as game:
        require_status(game, Game.Status.ACTIVE)
        now = timezone.now()
        left = None if game.deadline_at is None else max(game.deadline_at - now, timedelta())
        old = game.deadline_at
        game.status = Game.Status.PAUSED
        game.paused_time_left = left
        fields = set_deadline(game, None, now)
        game.save(update_fields=["status", "paused_time_left", *fields, "updated_at"])
        record(game, moderator, "pause", reason, time_left_hours=hours(left),
               old_deadline=old.isoformat() if old else None)
        tell_table(game, GameNotice.Kind.MODERATOR, action="pause", note=public_note)
    return game


def resume(game_id: int, *, moderator: User, reason: str, public_note: str = "") -> Game:
    """Start the clock again with the time that was left when the game was paused."""
    reason, public_note = clean_reason(reason), clean_note(public_note)
    with locked_game(game_id) as game:
        require_status(game, Game.Status.PAUSED)
        now = timezone.now()
        left = game.paused_time_left
        if left is None:
            left = timedelta(hours=game.hours_per_move)
        left = max(left, MIN_TIME_AFTER_RESUME)
        game.status = Game.Status.ACTIVE
        fields = set_deadline(game, None if game.actor is None else now + left, now)
        game.paused_time_left = None
        game.save(update_fields=["status", "paused_time_left", *fields, "updated_at"])
        record(game, moderator, "resume", reason, time_left_hours=hours(left),
               new_deadline=game.deadline_at.isoformat() if game.deadline_at else None)
        tell_table(game, GameNotice.Kind.MODERATOR, action="resume", note=public_note)
        bot_moves_if_due(game)
    return game


def cancel(game_id: int, *, moderator: User, reason: str, public_note: str = "") -> Game:
    """End the game for good without a result."""
    reason, public_note = clean_reason(reason), clean_note(public_note)
    with locked_game(game_id) as game:
        require_status(game, Game.Status.SETUP, Game.Status.ACTIVE, Game.Status.PAUSED)
        old, now = game.status, timezone.now()
        game.status = Game.Status.CANCELLED
        fields = set_deadline(game, None, now)
        game.paused_time_left = None
        game.save(update_fields=["status", *fields, "paused_time_left", "updated_at"])
        publish(GameEnded(game, now, cancelled=True))
        record(game, moderator, "cancel", reason, old_status=old, version=game.version)
        tell_table(game, GameNotice.Kind.MODERATOR, action="cancel", note=public_note)
    return game
