"""A turn email queued outside a move: after a takeover, a hand-over to or from a bot, a
player staying after all, a moderator's undo or resend.

Each is queued under a key of its own, so the pipeline sends it once, and a seat whose
player has had this turn's email already is not told again."""

from __future__ import annotations

from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.moves.services.moves import queue_bot_turn
from games.seats.core.seat import Seat


def queue_turn_email(game: Game, why: str, *, changed: Seat | None = None) -> list[int]:
    """A turn email for the seat to act, under a key of its own (`why`): the pipeline sends
    each key once, and the turn's ordinary email may have gone out already.

    `changed`: the seat that just changed hands (taken over, handed to a bot or back, its
    player staying after all). Only when it is that seat's turn, and only if its player now
    has not had this turn's email yet: one turn email per seat and turn, whatever happens
    to the other seats (a moderator's resend or undo passes no `changed`: they mean it)."""
    if game.status != Game.Status.ACTIVE or game.actor is None:
        return []
    if changed is not None and changed.number != game.actor:
        return []  # another seat's turn: its email stands
    seat = game.seats.get(number=game.actor)
    if seat.is_bot:  # no email: the bot moves (a few seconds after the commit)
        queue_bot_turn(game.pk, game.version)
        return []
    tag = plan.turn_tag(game.pk, game.version)
    if changed is not None and plan.told_this_turn(seat, tag):
        return []
    return plan.queue([plan.Spec(
        key=f"turn:seat={seat.pk}:{tag}:{why}", kind=Notification.Kind.TURN,
        to_email=seat.email, game_id=game.pk, seat_id=seat.pk,
        params={"version": game.version})])
