"""What a game's table reads besides the moves: table talk (Message) and the neutral
lines of the game log every seat sees (GameNotice: moderator acts, timeouts, vacations,
handovers, nudges, pauses). Only services write them (games.talk.services,
games.clock.services, games.moderation.services, games.handover.services).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game


class Message(models.Model):
    """Table talk: visible to every seat of the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    # The seat row (games.seats), named as the app knows it: the game floor imports no seat.
    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="messages")
    text = models.TextField(_("text"), max_length=1000)
    created_at = models.DateTimeField(_("written at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["game", "created_at", "id"]
        indexes = [models.Index(fields=["game", "-created_at"], name="message_game_recent")]

    def __str__(self) -> str:
        # The seat, not its player: whoever holds it now may not have written the line.
        return f"seat {self.seat.number}: {self.text[:40]}"


class GameNotice(models.Model):
    """A neutral line in the game log for every seat: a moderator act, a timeout, a vacation.

    Stored as a kind plus parameters, rendered (and translated) when shown; parameters
    hold only facts every seat may know (seat numbers, move numbers, public reasons).
    """

    class Kind(models.TextChoices):
        MODERATOR = "moderator", _("moderator")
        TIMEOUT = "timeout", _("missed deadline")
        ABSENT = "absent", _("player absent")
        VACATION = "vacation", _("vacation")
        DISPUTE = "dispute", _("dispute")
        PLAYER_REPLACED = "replaced", _("player replaced")
        SEAT_OPEN = "seat_open", _("seat looking for a new player")
        SEAT_KEPT = "seat_kept", _("player stays")
        TAKEOVER = "takeover", _("seat taken over")
        NUDGE = "nudge", _("nudge")
        PAUSE = "pause", _("pause")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notices")
    version = models.PositiveIntegerField(_("at version"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("game notice")
        verbose_name_plural = _("game notices")
        ordering = ["game", "created_at", "id"]
        indexes = [models.Index(fields=["game", "created_at"], name="notice_game_time")]

    def __str__(self) -> str:
        return f"{self.game_id} v{self.version} {self.kind}"
