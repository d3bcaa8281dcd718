"""The after-move outbox (games.mail.services.move_emails): one row per committed move, or game
start, whose follow-up (planning the turn, round-end and game-end emails) is still to be done.

The row is written in the move's own transaction, so a committed move always has it and
a rolled-back one never does, and the request publishes nothing to the broker: the beat's
`follow_up_moves` task (every FOLLOW_UP_SECONDS) plans the emails and deletes the rows.

Its own module as each concept's rows are (games.models lists them).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from games.game.core.game import Game


class FollowUp(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"game {self.game_id} at version {self.version}"
