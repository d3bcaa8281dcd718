"""Open tables (games.tables; docs/playing.md "Play with strangers"): a table forming
from players' homes, who sits at it, and what became of it.

- TableTerms: the settings a table is played on (ruleset, seats, pace and clock preset,
  language, rated, whether bots may fill the empty seats), shared by a table and by a
  challenge's terms (games.challenges), which become a table when accepted.
- OpenTable: the table's settings (ruleset, seats, pace and clock preset, language,
  rated, whether bots may fill the empty seats, anonymous: games.game.core.aliases), when
  its wait ends (`starts_at`), and its state: forming until it is full (started), or its
  wait ends (started with bots, or expired), or its last member leaves (closed). A started
  table names its game.
- TableMember: one person at one forming table, by address (the seat's email once the
  game starts) and mailbox key; unique per table and person.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField


class TableTerms(models.Model):
    """The settings a table is played on (abstract: the columns of each model that has them)."""

    ruleset = models.CharField(_("ruleset"), max_length=20)
    seats = models.PositiveSmallIntegerField(_("seats"))
    hours_per_move = models.PositiveIntegerField(_("hours per move"))
    # A clock preset's name (games.clock.core.clock_presets; its pace is hours_per_move);
    # "": the fixed hours per move.
    clock_preset = models.CharField(_("clock preset"), max_length=30, blank=True, default="")
    language = models.CharField(_("language"), max_length=8)
    rated = models.BooleanField(_("rated"), default=False)
    bots_fill = models.BooleanField(_("bots fill the empty seats"), default=False)

    class Meta:
        abstract = True


class OpenTable(TableTerms):
    class Status(models.TextChoices):
        FORMING = "forming", _("forming")
        STARTED = "started", _("started")
        EXPIRED = "expired", _("expired")
        CLOSED = "closed", _("closed")

    # Its game names every seat by an alias until it ends; while it forms, nobody sitting
    # at it is named either (games.tables.services.table_list).
    anonymous = models.BooleanField(_("anonymous"), default=False)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices,
                              default=Status.FORMING)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    starts_at = models.DateTimeField(_("wait ends at"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    game = models.OneToOneField(Game, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="open_table", verbose_name=_("game"))

    class Meta:
        verbose_name = _("open table")
        verbose_name_plural = _("open tables")
        ordering = ["created_at", "id"]
        indexes = [
            # The forming tables (the list, the match, the sweep): only they take an entry.
            models.Index(fields=["ruleset", "created_at"], name="open_table_forming",
                         condition=models.Q(status="forming")),
            models.Index(fields=["starts_at"], name="open_table_wait",
                         condition=models.Q(status="forming")),
        ]

    def __str__(self) -> str:
        return f"open table {self.pk}"


class TableMember(KeepsMailboxKeys):
    table = models.ForeignKey(OpenTable, on_delete=models.CASCADE, related_name="members")
    address = models.EmailField(_("email"))
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="address")
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)

    class Meta:
        verbose_name = _("member of an open table")
        verbose_name_plural = _("members of open tables")
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["table", "mailbox_key"],
                                               name="table_member_once")]
        indexes = [models.Index(fields=["mailbox_key"], name="table_member_key")]

    def __str__(self) -> str:
        return f"member of table {self.table_id}"
