"""Moderator acts that hand a seat to a bot (its player is absent) and back to its person,
and that change how the game's bots play (its bot level).

The seat keeps everything it holds (hand, role, gold) and its player keeps their link;
while a bot plays it the player gets no turn emails, only round and game results. Handing
a seat whose turn it is to a bot has the bot move a few seconds later
(games.moves.services.bot_turns). A seat a bot held from the start has no person to give it back to:
replace the player instead (seats.replace_player), which makes it a person's seat with an
invitation.

A seat looking for a new player (games.handover) goes on looking when a bot is handed it: a
bot holding an open seat is how it is played while it looks. Handed back to its person, it
looks no more: its player is back, as if they had stayed (its open seat closes and the
offers die: games.handover.services.opening.on_holder_changed).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from games.game.core.game import GOING_ON, BotLevel, Game
from games.game.core.talk_and_notices import GameNotice
from games.mail.services.turn_email import queue_turn_email
from games.moderation.services.acts import (
    ModerationError,
    clean_note,
    clean_reason,
    locked_game,
    record,
    require_status,
)
from games.seats.core import reply_tokens
from games.seats.core.seat import Seat
from games.talk.services.notices import tell_table


def _open_seat(seat_id: int) -> Seat:
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        raise ModerationError("no_seat", _("There is no such seat."))
    return seat


def hand_to_bot(seat_id: int, *, moderator: User, reason: str, public_note: str = "") -> Seat:
    """A bot plays the seat from now on (its player is absent)."""
    reason, public_note = clean_reason(reason), clean_note(public_note)
    seat = _open_seat(seat_id)
    with locked_game(seat.game_id) as game:
        require_status(game, *GOING_ON)
        seat = Seat.objects.select_for_update().get(pk=seat_id)
        if seat.is_bot:
            raise ModerationError("already_bot", _("A bot already plays this seat."))
        seat.give_to_bot(game)
        reply_tokens.revoke_seat(seat.pk)  # the bot plays: no email reply moves for it
        record(game, moderator, "hand_to_bot", reason, seat=seat.number)
        tell_table(game, GameNotice.Kind.MODERATOR, action="to_bot", seat=seat.number,
                   name=seat.player_name, note=public_note)
        queue_turn_email(game, "to_bot", changed=seat)  # the bot's move if it is its turn
    return seat


def hand_to_person(seat_id: int, *, moderator: User, reason: str,
                   public_note: str = "") -> Seat:
    """The seat's own player plays it again (a bot played it meanwhile)."""
    reason, public_note = clean_reason(reason), clean_note(public_note)
    seat = _open_seat(seat_id)
    with locked_game(seat.game_id) as game:
        require_status(game, *GOING_ON)
        seat = Seat.objects.select_for_update().get(pk=seat_id)
        if not seat.is_bot:
            raise ModerationError("not_bot", _("A person already plays this seat."))
        if not seat.email:
            raise ModerationError("no_person", _("This seat had a bot from the start, so "
                                                 "nobody can take it back: replace the "
                                                 "player instead."))
        seat.take_back(game)
        reply_tokens.revoke_seat(seat.pk)  # replies to emails from before the bot are void
        action = record(game, moderator, "hand_to_person", reason, seat=seat.number)
        tell_table(game, GameNotice.Kind.MODERATOR, action="to_person", seat=seat.number,
                   name=seat.player_name, note=public_note)
        if game.actor == seat.number:
            queue_turn_email(game, f"back={action.pk}", changed=seat)
    return seat


def set_bot_level(game_id: int, *, level: str, moderator: User, reason: str) -> Game:
    """The game's bots play at `level` from their next move on (every bot seat, and the
    bots that stand in for absent players or open seats)."""
    reason = clean_reason(reason)
    if level not in BotLevel.values:
        raise ModerationError("bad_level", _("Unknown bot level %(level)s.") % {"level": level})
    with locked_game(game_id) as game:
        require_status(game, *GOING_ON)
        if game.bot_level == level:
            raise ModerationError("same_level", _("The bots already play at that level."))
        before, game.bot_level = game.bot_level, level
        game.save(update_fields=["bot_level"])
        record(game, moderator, "bot_level", reason, before=before, level=level)
    return game
