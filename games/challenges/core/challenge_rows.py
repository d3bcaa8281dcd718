"""The rows of challenges (games.challenges; docs/playing.md "Challenge a player").

- Challenge: who challenges (their address, its mailbox key, the counted mailbox the
  daily cap goes by, and the public name they challenged under), the terms of the table
  it asks for (games.tables.core.table_rows.TableTerms), and what became of it: open
  until every player it names has accepted (accepted: the open table made for them,
  games.tables), one refuses (refused), its challenger or a moderator withdraws it
  (withdrawn), or it expires (CHALLENGE_DAYS).
- Challenged: one person a challenge names, by the address their public name's home
  has (never shown to the challenger) and its mailbox key, the name they were
  challenged by, and their answer.
- ChallengeBlock: a person takes no challenge from another (both by the hash of their
  mailbox key), with the name the blocked one had then, for the blocker's home.
- ChallengesClosed: a person takes no challenge at all (no row: they do).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField
from games.tables.core.table_rows import OpenTable, TableTerms


class Challenge(KeepsMailboxKeys, TableTerms):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for answers")
        ACCEPTED = "accepted", _("accepted")
        REFUSED = "refused", _("refused")
        EXPIRED = "expired", _("expired")
        WITHDRAWN = "withdrawn", _("withdrawn")

    challenger = models.EmailField(_("challenger's email"))
    challenger_key = MailboxKeyField(_("challenger's mailbox key (hash)"), source="challenger")
    # The counted mailbox (games.people.core.mailboxes.mailbox_hash): the daily cap's.
    counted = models.CharField(_("challenger's counted mailbox (hash)"), max_length=64)
    challenger_name = models.CharField(_("challenger's public name"), max_length=30)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.OPEN)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    table = models.ForeignKey(OpenTable, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+", verbose_name=_("open table"))

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [
            models.Index(fields=["counted", "created_at"], name="challenge_counted"),
            models.Index(fields=["challenger_key"], name="challenge_challenger"),
            models.Index(fields=["expires_at"], name="challenge_open",
                         condition=models.Q(status="open")),
        ]

    def __str__(self) -> str:
        return f"challenge {self.pk}"


class Challenged(KeepsMailboxKeys):
    class Answer(models.TextChoices):
        WAITING = "", _("no answer yet")
        ACCEPTED = "accepted", _("accepted")
        REFUSED = "refused", _("refused")

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE,
                                  related_name="challenged")
    address = models.EmailField(_("email"))
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="address")
    name = models.CharField(_("public name"), max_length=30)
    answer = models.CharField(_("answer"), max_length=8, choices=Answer.choices,
                              default=Answer.WAITING, blank=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("challenged player")
        verbose_name_plural = _("challenged players")
        constraints = [models.UniqueConstraint(fields=["challenge", "mailbox_key"],
                                               name="challenged_once")]
        indexes = [models.Index(fields=["mailbox_key"], name="challenged_key")]

    def __str__(self) -> str:
        return f"challenged in {self.challenge_id}"


class ChallengeBlock(models.Model):
    by_key = models.CharField(_("blocker's mailbox key (hash)"), max_length=64)
    blocked_key = models.CharField(_("blocked player's mailbox key (hash)"), max_length=64)
    blocked_name = models.CharField(_("public name when blocked"), max_length=30)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("blocked challenger")
        verbose_name_plural = _("blocked challengers")
        constraints = [models.UniqueConstraint(fields=["by_key", "blocked_key"],
                                               name="challenge_block_once")]
        indexes = [models.Index(fields=["blocked_key"], name="challenge_block_blocked")]

    def __str__(self) -> str:
        return f"block {self.pk}"


class ChallengesClosed(models.Model):
    mailbox = models.CharField(_("mailbox key (hash)"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("player taking no challenges")
        verbose_name_plural = _("players taking no challenges")

    def __str__(self) -> str:
        return self.mailbox[:8]
