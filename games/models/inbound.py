"""Moves by email (README "Playing by email"): reply tokens and the inbound messages seen.

A `ReplyToken` is the credential in a turn email's Reply-To (`play+<token>@INBOUND_DOMAIN`):
only its SHA-256 is stored, bound to the seat and the game version the email showed.
An `InboundMail` row is written once per inbound message (its Message-ID and the
provider's event id are unique), so a message delivered twice is handled once; it also
counts the answers sent to a sender (the hourly limit) and shows moderators a reply
whose From is not the seat's address.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.game import Game, Seat


class ReplyToken(models.Model):
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reply_tokens")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="reply_tokens")
    version = models.PositiveIntegerField(_("at version"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("reply token")
        verbose_name_plural = _("reply tokens")

    def __str__(self) -> str:
        return f"seat {self.seat_id} v{self.version}"


class InboundMail(models.Model):
    """One inbound email, recorded before it is acted on."""

    class Outcome(models.TextChoices):
        RECEIVED = "received", _("received")
        MOVED = "moved", _("move made")
        TALK = "talk", _("table talk")
        REFUSED = "refused", _("refused")
        STALE = "stale", _("game moved on")
        UNKNOWN_TOKEN = "unknown", _("unknown token")
        EMPTY = "empty", _("no command")

    message_id = models.CharField(_("Message-ID"), max_length=250, blank=True)
    event_id = models.CharField(_("provider event id"), max_length=250, blank=True)
    sender = models.CharField(_("from"), max_length=254, blank=True, db_index=True)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="inbound_mails")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="inbound_mails")
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices,
                               default=Outcome.RECEIVED)
    detail = models.TextField(_("detail"), blank=True)
    # The From is not the credential (the token is); a different address is worth a look.
    from_mismatch = models.BooleanField(_("From is not the seat's address"), default=False)
    answered = models.BooleanField(_("answered"), default=False)
    received_at = models.DateTimeField(_("received at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("inbound email")
        verbose_name_plural = _("inbound emails")
        ordering = ["-received_at"]
        constraints = [
            models.UniqueConstraint(fields=["message_id"], name="inbound_unique_message_id",
                                    condition=~models.Q(message_id="")),
            models.UniqueConstraint(fields=["event_id"], name="inbound_unique_event_id",
                                    condition=~models.Q(event_id="")),
        ]
        indexes = [models.Index(fields=["sender", "received_at"], name="inbound_sender_time")]

    def __str__(self) -> str:
        return f"{self.received_at:%Y-%m-%d %H:%M} {self.sender} {self.outcome}"
