"""Games as a move log plus a snapshot (DESIGN.md "State and history").

Only `games.services` writes to these tables for a running game.
"""

from __future__ import annotations

import secrets
import zoneinfo

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import engine

MAX_HOURS_PER_MOVE = 24 * 14


def new_public_id() -> str:
    return secrets.token_urlsafe(16)


class Game(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", _("waiting for players")
        ACTIVE = "active", _("active")
        PAUSED = "paused", _("paused")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    name = models.CharField(_("name"), max_length=100)
    ruleset = models.CharField(_("ruleset"), max_length=20, default="base")
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"))
    hours_per_move = models.PositiveIntegerField(
        _("hours per move"),
        default=24,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_HOURS_PER_MOVE)],
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SETUP
    )
    # Number of Move rows applied; every submission names the version it saw.
    version = models.PositiveIntegerField(_("version"), default=0)
    # engine.State.to_json() after `version` moves: a cache of replaying the Move rows.
    snapshot = models.JSONField(_("snapshot"))
    # Seat whose decision is awaited (copied from the snapshot for queries); None when over.
    actor = models.PositiveSmallIntegerField(_("seat to act"), null=True, blank=True)
    spectators_allowed = models.BooleanField(_("spectators allowed"), default=False)
    # Random public id for the spectator page (game ids are guessable, this is not).
    public_id = models.CharField(
        max_length=22, unique=True, editable=False, default=new_public_id
    )
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "deadline_at"], name="game_status_deadline"),
            models.Index(fields=["status", "-updated_at"], name="game_status_updated"),
        ]

    def __str__(self) -> str:
        return self.name

    def state(self) -> engine.State:
        return engine.State.from_json(self.snapshot)

    @property
    def is_playable(self) -> bool:
        return self.status == self.Status.ACTIVE


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat number"))
    player_name = models.CharField(_("player name"), max_length=60)
    email = models.EmailField(_("email"))
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    # sha256 (hex) of the private link's token; the token itself is never stored.
    secret_hash = models.CharField(max_length=64, unique=True, editable=False)
    link_rotated_at = models.DateTimeField(_("link last rotated"), null=True, blank=True)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_unique_number"),
        ]
        indexes = [models.Index(fields=["email"], name="seat_email")]

    def __str__(self) -> str:
        return f"{self.player_name} (seat {self.number})"

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")


class Move(models.Model):
    class Actor(models.TextChoices):
        SEAT = "seat", _("player")
        SYSTEM = "system", _("system")
        MODERATOR = "moderator", _("moderator")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    # 1-based: applying move N takes the game from version N-1 to version N.
    number = models.PositiveIntegerField(_("number"))
    actor_kind = models.CharField(_("made by"), max_length=10, choices=Actor.choices)
    seat_number = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderated_moves",
    )
    move = models.JSONField(_("move"))
    created_at = models.DateTimeField(_("made at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.number} {self.move.get('type', '?')}"


class Message(models.Model):
    """Table talk: visible to every seat of the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="messages")
    text = models.TextField(_("text"), max_length=1000)
    created_at = models.DateTimeField(_("written at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["game", "created_at", "id"]
        indexes = [models.Index(fields=["game", "-created_at"], name="message_game_recent")]

    def __str__(self) -> str:
        return f"{self.seat}: {self.text[:40]}"
