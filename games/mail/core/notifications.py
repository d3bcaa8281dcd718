"""One email, written before it is sent (games.mail): the outbox of every game."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField
from games.seats.core.seat import Seat


class Notification(KeepsMailboxKeys):
    """One email, written before it is sent; `key` makes sending it twice impossible."""

    class Kind(models.TextChoices):
        INVITATION = "invitation", _("invitation")
        TURN = "turn", _("your turn")
        REMINDER = "reminder", _("reminder")
        MISSED = "missed", _("missed deadline")
        ROUND_END = "round_end", _("round end")
        GAME_END = "game_end", _("game end")
        DIGEST = "digest", _("daily digest")
        DISPUTE_FILED = "dispute_filed", _("dispute filed")
        DISPUTE_RESOLVED = "dispute_done", _("dispute resolved")
        MODERATOR_ALERT = "mod_alert", _("moderator alert")
        LINKS = "links", _("private links")
        CONFIRM_SETUP = "confirm_setup", _("confirm a new game")
        ANSWER = "answer", _("answer to an email move")
        STANDBY = "standby", _("standby link")
        SEAT_OFFER = "seat_offer", _("offer of an open seat")
        NEW_HOME = "new_home", _("confirm a new home")
        TABLE_CLOSED = "table_closed", _("open table expired")
        NUDGE = "nudge", _("nudge")
        NAME_RESET = "name_reset", _("public name reset")
        REPORT_DIGEST = "report_digest", _("digest of talk reports")
        PAUSE = "pause", _("pause proposed")
        MENTION = "mention", _("called by name in table talk")
        CHALLENGE = "challenge", _("challenge")
        CHALLENGE_ANSWER = "challenge_answer", _("answer to a challenge")
        CHALLENGE_OFF = "challenge_off", _("challenge withdrawn")
        CONFIRM_EVENT = "confirm_event", _("confirm a new tournament")
        EVENT_RESULT = "event_result", _("result of a tournament")
        EVENT_CHANGED = "event_changed", _("a tournament changed")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        RETRYING = "retrying", _("retrying")
        FAILED = "failed", _("failed")
        SKIPPED = "skipped", _("skipped")

    class Delivery(models.TextChoices):
        UNKNOWN = "", _("unknown")
        DELIVERED = "delivered", _("delivered")
        BOUNCED = "bounced", _("bounced")
        COMPLAINED = "complained", _("complained")
        REJECTED = "rejected", _("rejected")

    # e.g. "turn:seat=12:v=41", "reminder:seat=12:v=41:h=1", "digest:ann@x:2026-11-22"
    key = models.CharField(_("key"), max_length=200, unique=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications",
                             null=True, blank=True)
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, related_name="notifications",
                             null=True, blank=True)
    to_email = models.EmailField(_("to"))
    # Whose email it is (games.people.core.mailboxes): the data export and "forget me".
    to_key = MailboxKeyField(_("recipient's mailbox key (hash)"), source="to_email")
    subject = models.CharField(_("subject"), max_length=300, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    message_id = models.CharField(_("Message-ID"), max_length=200, blank=True)
    provider_id = models.CharField(_("provider message id"), max_length=200, blank=True,
                                   db_index=True)
    delivery = models.CharField(_("delivery"), max_length=12, choices=Delivery.choices,
                                default=Delivery.UNKNOWN, blank=True)
    delivery_at = models.DateTimeField(_("delivery reported at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    # Facts the email needs beyond the game's view (e.g. reminder hours, what an alert is
    # about); only public facts, never a hand or a role.
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    # Set when a send task claims the row (status sending); a stale claim is retried.
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    retry_at = models.DateTimeField(_("next attempt at"), null=True, blank=True)
    # Held until then (a pending row is not claimed before): a turn email for a player who
    # has the game's page open waits to see whether they play (games.mail.core.seen_turns).
    not_before = models.DateTimeField(_("not before"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="notification_status"),
            models.Index(fields=["game", "-created_at"], name="notification_game"),
            models.Index(fields=["to_key"], name="notification_to_key"),
        ]

    def __str__(self) -> str:
        return self.key
