"""Moderator acts on a seat: replace its player, give it a new link, move for it,
send its turn email again.

A replaced seat keeps its hand, role and gold (they belong to the seat, not the
person); the old link dies with a new salt and the new player gets an invitation
with the new link (games.mail.services.follow_ups.send_invitation). Nobody but the
player ever sees a link: a rotated link is mailed, never shown to the moderator. A seat
looking for a new player (games.handover) that is given to someone has one: it looks no
more, as if they had taken it over (games.handover.services.opening.on_holder_changed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games import engine
from games.engine.types import Move
from games.game.core.game import GOING_ON, Game
from games.game.core.talk_and_notices import GameNotice
from games.kit import time_zones
from games.kit.text import is_clean_line
from games.mail.services.turn_email import queue_turn_email
from games.moderation.services.acts import (
    ModerationError,
    clean_note,
    clean_reason,
    locked_game,
    record,
    require_status,
)
from games.moves.services import moves
from games.moves.services import seat_services as services
from games.people.core.deliverable import refusal_to_store
from games.people.core.mailboxes import mailbox
from games.seats.core import reply_tokens
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from games.talk.services.notices import tell_table


def _seat(seat_id: int) -> Seat:
    try:
        return Seat.objects.get(pk=seat_id)
    except Seat.DoesNotExist:
        raise ModerationError("no_seat", _("There is no such seat.")) from None


def _check_player(game: Game, seat: Seat, name: str, email: str) -> tuple[str, str]:
    name, email = name.strip(), email.strip()
    if (not name or len(name) > Seat._meta.get_field("player_name").max_length  # type: ignore[operator]
            or not is_clean_line(name)):
        raise ModerationError("bad_name", _("Give the new player's name (at most 60 "
                                            "characters)."))
    why = refusal_to_store(email)
    if why:
        raise ModerationError("bad_email", why)
    # One person, one seat: counted by mailbox (games.people.core.mailboxes), as a takeover is.
    taken = {mailbox(s.email) for s in game.seats.exclude(pk=seat.pk) if s.email}
    if mailbox(email) in taken:
        raise ModerationError("email_taken", _("Another seat of this game has that email "
                                               "address."))
    return name, email


def replace_player(seat_id: int, *, name: str, email: str, moderator: User, reason: str,
                   public_note: str = "", time_zone: str = "", language: str = "") -> Seat:
    """Give the seat to a new player; the hand and role stay with the seat."""
    reason, public_note = clean_reason(reason), clean_note(public_note)
    seat = _seat(seat_id)
    with locked_game(seat.game_id) as game:
        require_status(game, *GOING_ON)
        seat = Seat.objects.select_for_update().get(pk=seat_id)
        name, email = _check_player(game, seat, name, email)
        time_zone = time_zone or seat.time_zone
        language = language or seat.language
        if not time_zones.valid_time_zone(time_zone):
            raise ModerationError("bad_time_zone", _("Unknown time zone %(zone)s.")
                                  % {"zone": time_zone})
        if language not in {code for code, _label in settings.LANGUAGES}:
            raise ModerationError("bad_language", _("Unknown language %(code)s.")
                                  % {"code": language})
        old = {"name": seat.player_name, "email": seat.email, "missed_turns": seat.missed_turns,
               "absent_since": seat.absent_since.isoformat() if seat.absent_since else None,
               "email_problem_at": (seat.email_problem_at.isoformat()
                                    if seat.email_problem_at else None)}
        # Their moves and words stay theirs (the seat writes its history).
        seat.hand_to(game, name=name, email=email, time_zone=time_zone, language=language)
        reply_tokens.revoke_seat(seat.pk)  # the old player's emails move no more
        record(game, moderator, "replace_player", reason, seat=seat.number, old=old,
               new={"name": name, "email": email, "time_zone": time_zone,
                    "language": language})
        tell_table(game, GameNotice.Kind.PLAYER_REPLACED, seat=seat.number,
                   old=old["name"], new=name, note=public_note)
        game_setup.invite_seat(seat)
    return seat


def rotate_seat_link(seat_id: int, *, moderator: User, reason: str) -> Seat:
    """A new private link for the seat, mailed to its player; the old one dies."""
    reason = clean_reason(reason)
    seat = _seat(seat_id)
    with locked_game(seat.game_id) as game:
        require_status(game, *GOING_ON)
        services.rotate_link(seat.pk)
        seat.refresh_from_db()
        record(game, moderator, "rotate_link", reason, seat=seat.number)
        game_setup.invite_seat(seat)
    return seat


def legal_for_actor(game: Game) -> list[Move]:
    """The moves a moderator may make for the seat to act (none unless active)."""
    state = game.state()
    if game.status != Game.Status.ACTIVE or state.actor is None:
        return []
    return engine.legal_moves(state)


def moderator_move(game_id: int, move: Mapping[str, Any], *, expected_version: int,
                   moderator: User, reason: str, public_note: str = "") -> Game:
    """Make one of the legal moves for the seat to act (a `Move`, or what the admin's
    form sent), recorded as a moderator move."""
    reason, public_note = clean_reason(reason), clean_note(public_note)
    chosen = {k: v for k, v in move.items() if k != "seat"}
    with transaction.atomic():
        try:
            moved = moves.game_move_submit(
                actor=moves.ByModerator(game_id, moderator), version=expected_version,
                move=chosen)
        except (engine.IllegalMove, services.GameNotPlayable):
            raise ModerationError("not_legal", _("That is not one of the legal moves of the "
                                                 "seat to act.")) from None
        game, actor = moved.game, moved.seat_number
        record(game, moderator, "moderator_move", reason, seat=actor, number=game.version,
               move=chosen)
        tell_table(game, GameNotice.Kind.MODERATOR, action="move", seat=actor,
                   number=game.version, note=public_note)
    return game


def resend_turn_email(game_id: int, *, moderator: User, reason: str) -> Game:
    """Send the seat to act its turn email again (e.g. after a bounce was fixed)."""
    reason = clean_reason(reason)
    with locked_game(game_id) as game:
        require_status(game, Game.Status.ACTIVE)
        if game.actor is None:
            raise ModerationError("nobody_to_act", _("Nobody is to act in this game."))
        seat = game.seats.get(number=game.actor)
        action = record(game, moderator, "resend_turn_email", reason, seat=seat.number,
                        version=game.version, to=seat.email)
        queue_turn_email(game, f"resend={action.pk}")
    return game
