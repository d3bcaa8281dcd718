"""Bot seats: a bot plays its turn through the same write path as people.

`games.play.hooks.after_move_committed` queues `games.tasks.play_bot_turn(game, version)`
a few seconds (settings.BOT_MOVE_DELAY_SECONDS) after a bot's turn starts, so the page of
the person who just moved shows their move before the bot's answer. The task calls
`play_bot_turn`, which moves only if the game is still at that version and a bot still
holds the seat to act: a task run twice, or a turn a moderator took meanwhile, makes no
second move. The beat's `sweep_bot_turns` requeues bot turns whose task was lost.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F

from games.models import Game, Move, Seat, SeatKind
from games.play import services
from games.play.bot_choice import bot_move

# How long past its due time a bot turn may wait before the sweep queues it again.
STALLED_AFTER = timedelta(minutes=1)


def play_bot_turn(game_id: int, version: int) -> bool:
    """Make the bot's move of turn `version`; False (nothing done) when it is no longer due."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if (game is None or game.status != Game.Status.ACTIVE or game.version != version
                or game.actor is None):
            return False
        seat = Seat.objects.filter(game=game, number=game.actor).first()
        if seat is None or not seat.is_bot:
            return False
        move = bot_move(game.state(), seat.number, game.seed, version)
        services.apply_move(game_id, version, {**move, "seat": seat.number},
                            actor_kind=Move.Actor.BOT, seat_number=seat.number)
    return True


def stalled_bot_turns(now: datetime) -> list[tuple[int, int]]:
    """(game id, version) of active games where a bot should have moved by now."""
    due = now - timedelta(seconds=settings.BOT_MOVE_DELAY_SECONDS) - STALLED_AFTER
    bot_seats = Seat.objects.filter(kind=SeatKind.BOT, game__status=Game.Status.ACTIVE,
                                    number=F("game__actor"), game__turn_started_at__lt=due)
    return list(bot_seats.values_list("game_id", "game__version")[:500])
