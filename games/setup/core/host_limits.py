"""Who may be invited by whom (games.setup.services.web_setup): a recipient who
unsubscribed from a host's invitation is never invited by that host again. Addresses are
kept as hashes of the mailbox they reach (games.people.core.mailboxes). What the daily caps
count is games.seats.core.invitations."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class HostBlock(models.Model):
    host_hash = models.CharField(_("host (hash)"), max_length=64)
    recipient_hash = models.CharField(_("recipient (hash)"), max_length=64)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("refused host")
        verbose_name_plural = _("refused hosts")
        constraints = [models.UniqueConstraint(fields=["host_hash", "recipient_hash"],
                                               name="hostblock_unique_pair")]

    def __str__(self) -> str:
        return f"{self.recipient_hash[:8]} refuses {self.host_hash[:8]}"
