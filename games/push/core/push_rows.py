"""The rows of web push: a person's devices (one browser's subscription each), their
choice of push only and its fallback window, and one alert per planned email and device.

A device belongs to a person (its mailbox key, games.people.core.mailboxes), not to a
seat: it is turned on from the home and alerts for every game of the person. Its endpoint
and keys are the browser's; the endpoint is a capability URL (whoever has it may push to
the device), so it is shown nowhere and logged never: pages and logs name a device by its
id and name.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField
from games.seats.core.seat import Seat

DEFAULT_FALLBACK_MINUTES = 120


class AlertKind(models.TextChoices):
    """What a device may be alerted of (the home's checkboxes)."""

    TURN = "turn", _("your turn")
    DEADLINE = "deadline", _("time running out")
    START_END = "start_end", _("game started or ended")
    TALK = "talk", _("table talk (one an hour a game at most)")


class PushDevice(KeepsMailboxKeys):
    address = models.CharField(_("email"), max_length=254)
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="address")
    name = models.CharField(_("device name"), max_length=60)
    endpoint = models.TextField(_("push endpoint"))
    endpoint_hash = models.CharField(max_length=64, unique=True, editable=False)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    kinds = models.JSONField(_("kinds of alert"), default=list)
    browser = models.CharField(_("browser family"), max_length=20, default="other")
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    last_ok_at = models.DateTimeField(_("last push accepted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("alert device")
        verbose_name_plural = _("alert devices")
        indexes = [models.Index(fields=["mailbox_key"], name="push_device_person")]

    def __str__(self) -> str:
        return f"device {self.pk} ({self.name})"


class PushChoice(KeepsMailboxKeys):
    """A person's choice: alerts beside emails, or push only (the turn email then waits
    `fallback_minutes` for the alert's receipt, and goes only without one)."""

    address = models.CharField(_("email"), max_length=254)
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="address")
    push_only = models.BooleanField(_("push only (the turn email only as a fallback)"),
                                    default=False)
    fallback_minutes = models.PositiveIntegerField(_("fallback after (minutes)"),
                                                   default=DEFAULT_FALLBACK_MINUTES)

    class Meta:
        verbose_name = _("alert choice")
        verbose_name_plural = _("alert choices")
        constraints = [models.UniqueConstraint(fields=["mailbox_key"],
                                               name="push_choice_one_per_person")]

    def __str__(self) -> str:
        return f"alert choice {self.pk}"


class PushAlert(KeepsMailboxKeys):
    """One push to one device: beside one planned email, or of a line of table talk (which
    has no email of its own); sent once (a claim, as emails)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        RETRYING = "retrying", _("retrying")
        FAILED = "failed", _("failed")
        SKIPPED = "skipped", _("skipped")
        GONE = "gone", _("device gone")

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE,
                                     related_name="push_alerts", null=True, blank=True)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="push_alerts")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="push_alerts")
    # Whose alert it is (the data export, "forget me"): the person the device was theirs.
    to_email = models.CharField(_("to"), max_length=254)
    to_key = MailboxKeyField(_("recipient's mailbox key (hash)"), source="to_email")
    device = models.ForeignKey(PushDevice, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="alerts")
    kind = models.CharField(_("kind"), max_length=12, choices=AlertKind.choices)
    # Kept from the device: the receipt rates per browser outlive a pruned device.
    browser = models.CharField(_("browser family"), max_length=20, default="other")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # The push service's answer (a status code and its reason), never the endpoint.
    last_error = models.CharField(_("last error"), max_length=200, blank=True)
    # The email this alert holds back (a push-only player's turn email).
    holds_email = models.BooleanField(_("holds the turn email"), default=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    not_before = models.DateTimeField(_("not before"), null=True, blank=True)
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    retry_at = models.DateTimeField(_("next attempt at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    shown_at = models.DateTimeField(_("shown at"), null=True, blank=True)
    clicked_at = models.DateTimeField(_("clicked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("push alert")
        verbose_name_plural = _("push alerts")
        constraints = [models.UniqueConstraint(fields=["notification", "device"],
                                               name="push_alert_once_per_device")]
        indexes = [models.Index(fields=["status", "not_before"], name="push_alert_due"),
                   models.Index(fields=["to_key"], name="push_alert_person")]

    def __str__(self) -> str:
        return f"push alert {self.pk}"
