"""Moderation records: disputes players file (and the reports of a table-talk line each
one gathers), what moderators did, and the sweeps' marks."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game
from games.seats.core.seat import Seat


class Dispute(models.Model):
    """A player's complaint about a game, settled by a moderator."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="disputes")
    move_number = models.PositiveIntegerField(_("about move"), null=True, blank=True)
    text = models.TextField(_("what is wrong"), max_length=4000)
    # The table always sees that a dispute is open; its text only if the filer allows.
    share_with_table = models.BooleanField(_("show my text to the table"), default=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.OPEN)
    outcome = models.CharField(_("outcome"), max_length=200, blank=True)
    note = models.TextField(_("moderator's note"), blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    null=True, blank=True, related_name="resolved_disputes")
    created_at = models.DateTimeField(_("filed at"), default=timezone.now, editable=False)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    # A report of a table-talk line (games.moderation.services.talk_reports): the line, and a copy
    # of it with the lines around it as they were when reported (who said what, when),
    # kept even if the line is later erased.
    talk = models.ForeignKey("games.Message", on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="reports", verbose_name=_("talk line"))
    talk_context = models.JSONField(_("the line in its context"), default=list, blank=True)
    # When the moderators were emailed about it: at once, or in the game's next digest of
    # reports (games.moderation.services.dispute_mail: at most one email per game an hour about
    # reports); NULL while it waits for that digest.
    mailed_at = models.DateTimeField(_("moderators emailed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="dispute_status"),
            models.Index(fields=["game", "status"], name="dispute_game_status"),
            # The digest sweep's question: only the reports waiting for it take an entry.
            models.Index(fields=["game"], name="dispute_awaiting_mail",
                         condition=models.Q(mailed_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"dispute {self.pk} on {self.game_id}"


class TalkReport(models.Model):
    """One seat's report of a table-talk line. The reports of one line are one dispute
    (its filer made the first); a seat reports a line once."""

    dispute = models.ForeignKey(Dispute, on_delete=models.CASCADE, related_name="reports")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="talk_reports")
    reason = models.TextField(_("what is wrong"), blank=True, max_length=1000)
    created_at = models.DateTimeField(_("reported at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("report of a talk line")
        verbose_name_plural = _("reports of talk lines")
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["dispute", "seat"],
                                               name="talk_report_once_per_seat")]

    def __str__(self) -> str:
        return f"report by seat {self.seat_id} in dispute {self.dispute_id}"


class ModeratorAction(models.Model):
    """Every moderator act: who, when, why and what changed (looking at secrets too)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moderator_actions")
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="moderator_actions")
    kind = models.CharField(_("action"), max_length=30)
    reason = models.TextField(_("reason"))
    details = models.JSONField(_("what changed"), default=dict, blank=True)
    created_at = models.DateTimeField(_("at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("moderator action")
        verbose_name_plural = _("moderator actions")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["game", "-created_at"], name="modaction_game")]

    def __str__(self) -> str:
        return f"{self.kind} on {self.game_id} by {self.moderator_id}"


