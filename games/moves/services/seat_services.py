"""The services that change a game besides its moves, one transaction per operation: a
seat's link, preferences and email setting, table talk. Setting games up is
games.setup.services.game_setup's. Every move, whoever makes it, goes through
`games.moves.services.moves.game_move_submit`; a missed deadline through
`games.clock.services.misses.miss_deadline`.

Views, commands, Celery tasks and admin actions call these functions and nothing else
writes Game, Seat, Move or Message rows of a game.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.utils.translation import gettext as _

from games.game.core.choices import ConfirmMoves
from games.game.core.game import EmailMode, Game
from games.game.core.talk_and_notices import Message
from games.kit.events import publish
from games.kit.service_errors import GameNotPlayable, ServiceError, SetupError, StaleVersion
from games.kit.text import is_clean_message
from games.kit.time_zones import valid_time_zone
from games.moves.core.talk_events import TalkPosted
from games.seats.core import reply_tokens
from games.seats.core.seat import Seat

__all__ = [
    "GameNotPlayable", "ServiceError", "SetupError", "StaleVersion", "post_message",
    "rotate_link", "set_email_mode", "set_email_options", "update_preferences",
]

MAX_MESSAGE_LENGTH = 1000


# ---- seats and table talk -------------------------------------------------------------


def rotate_link(seat_id: int, current_hash: str | None = None) -> str | None:
    """Give the seat a new private link; the old one, and every reply address of the
    seat's emails, stop working at once.

    With `current_hash` (the hash of the link the request came with) only if that is
    still the seat's link: of two clicks at once one rotates, the other gets None, so
    nobody is handed a link that is already dead."""
    made = Seat.rotate_link_of(seat_id, from_hash=current_hash)
    if made is None:
        return None
    reply_tokens.revoke_seat(seat_id)  # the old emails' reply addresses die with the link
    return made.token


def update_preferences(seat_id: int, *, time_zone: str, language: str,
                       confirm_moves: str = "") -> None:
    """The seat page's settings; `confirm_moves` "" keeps the seat's (a form sent by a
    page from before that setting existed)."""
    if not valid_time_zone(time_zone):
        raise ServiceError("bad_time_zone", _("Unknown time zone %(zone)s.") % {"zone": time_zone})
    if language not in {code for code, _label in settings.LANGUAGES}:
        raise ServiceError("bad_language", _("Unknown language %(code)s.") % {"code": language})
    if confirm_moves and confirm_moves not in ConfirmMoves.values:
        raise ServiceError("bad_confirm", _("Unknown setting for confirming moves."))
    changes = {"time_zone": time_zone, "language": language}
    if confirm_moves:
        changes["confirm_moves"] = confirm_moves
    Seat.objects.filter(pk=seat_id).update(**changes)


def post_message(seat: Seat, text: str) -> Message:
    """Table talk, seen by every seat of the game."""
    text = text.strip()
    if not text:
        raise ServiceError("empty_message", _("Write something first."))
    if not is_clean_message(text):
        raise ServiceError("bad_text", _("Use visible letters and signs only."))
    if len(text) > MAX_MESSAGE_LENGTH:
        raise ServiceError(
            "message_too_long",
            _("A message can be at most %(max)s characters long.") % {"max": MAX_MESSAGE_LENGTH},
        )
    if seat.game.status == Game.Status.CANCELLED:
        raise ServiceError("game_not_active", _("The game was cancelled."))
    line = Message.objects.create(game_id=seat.game_id, seat=seat, text=text)
    publish(TalkPosted(game_id=seat.game_id, seat_id=seat.pk))  # alerts (games.push)
    return line


# ---- email settings (games.clock.services.turn_clock: deadlines, reminders, vacations, the sweeps)
# ---------


def set_email_mode(seat_ids: Sequence[int], mode: str) -> None:
    """Choose the seats' emails (each turn, daily digest, links only).

    Saving also clears a bounce flag: the player says their mailbox works again.
    """
    if mode not in EmailMode.values:
        raise ServiceError("bad_email_mode", _("Unknown email setting."))
    Seat.objects.filter(pk__in=seat_ids).update(email_mode=mode, email_problem_at=None)


def set_email_options(seat_ids: Sequence[int], *, talk_in_emails: bool,
                      skip_seen_turns: bool) -> None:
    """Choose what the seats' emails carry and when a turn email waits: the table talk
    since the last email (games.mail.services.table_talk), and no turn email for a turn the
    player has seen on their open page unless it is still unplayed an hour later
    (games.mail.core.seen_turns). Both are on for a new seat."""
    Seat.objects.filter(pk__in=seat_ids).update(talk_in_emails=talk_in_emails,
                                                skip_seen_turns=skip_seen_turns)
