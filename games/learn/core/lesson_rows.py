"""The row that marks a game as a lesson (games.learn): who may find it (nobody: its only
link is the learner's), and when it may go (`sweep_idle_lessons`).

A lesson's game is an ordinary game otherwise: its seats, moves and record are the same
rows as any game's, deleted with it.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game


class Lesson(models.Model):
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="lesson")
    # Which lesson it follows (games.learn.core.first_round.NAME): its words and marks.
    name = models.CharField(_("lesson"), max_length=40)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("lesson")
        verbose_name_plural = _("lessons")

    def __str__(self) -> str:
        return f"lesson {self.name} (game {self.game_id})"
