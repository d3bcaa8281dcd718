"""Bot turns whose task was lost: the beat's `sweep_bot_turns` queues them again.

A move after which a bot is to act queues the bot's turn itself (games.moves.services.moves
`queue_bot_turn`, a few seconds later); the task moves only if the game is still at that
version and a bot still holds the seat to act, so queuing it again does no harm.

Its own module: the beat's sweep task imports it without the move service's tasks.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F

from games.game.core.game import Game, SeatKind
from games.seats.core.seat import Seat

# How long past its due time a bot turn may wait before the sweep queues it again.
STALLED_AFTER = timedelta(minutes=1)


def stalled_bot_turns(now: datetime) -> list[tuple[int, int]]:
    """(game id, version) of active games where a bot should have moved by now."""
    due = now - timedelta(seconds=settings.BOT_MOVE_DELAY_SECONDS) - STALLED_AFTER
    bot_seats = Seat.objects.filter(kind=SeatKind.BOT, game__status=Game.Status.ACTIVE,
                                    number=F("game__actor"), game__turn_started_at__lt=due)
    return list(bot_seats.values_list("game_id", "game__version")[:500])
