"""A home asked for by an address that plays nowhere yet (/me/; games.home.services.welcome): the
address is emailed a link that confirms it, and the confirmed home starts empty.

NewHome keeps the address until it is confirmed (then the home link row takes over and
this row goes) or for a week at most, the counted mailbox (at most one such email a day
per mailbox, however the address is spelled), and the sha256 of the link's token (made
like every private link: HMAC under the link key, games.seats.core.links), never the token.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField


class NewHome(KeepsMailboxKeys):
    address = models.EmailField()
    mailbox_key = MailboxKeyField(source="address")
    # The counted mailbox (games.people.core.mailboxes.mailbox_hash): one email a day each.
    counted = models.CharField(max_length=64)
    salt = models.CharField(max_length=32)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["counted", "created_at"], name="new_home_counted"),
                   models.Index(fields=["mailbox_key"], name="new_home_key")]

    def __str__(self) -> str:
        return f"new home {self.pk}"
