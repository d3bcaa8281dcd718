"""What a player decides about their own data (games.home.services: export, forget;
README "Your data").

- RecordShown: the player lets the tables they sit at see a short line of their record
  (off by default: no row). Kept by the hash of the person's mailbox key, never the
  address.
- ForgottenAddress: an address that asked to be forgotten gets no email again. Only a
  keyed hash of the mailbox it reaches is kept (HMAC under the link key: a dump alone
  cannot test guessed addresses against it); every configured link key is tried, so
  retiring a key keeps the suppression. It is a refusal, so it goes by the counted
  mailbox (games.people.core.mailboxes.mailbox): `ann+games@x.org` forgotten, no email goes
  to `ann@x.org` either.
- PendingForget: a request to be forgotten that waits for games that could not hand the
  seat over (the game waits for a newcomer, or has not started); the beat's sweep carries
  it out once they end, then deletes the row (the only row still holding the address).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField
from games.people.core.mailboxes import mailbox

# The name a forgotten player's seat keeps: stored as this English marker and shown in the
# reader's language (games.game.core.aliases.stored_name).
FORMER_PLAYER = "a former player"


class RecordShown(models.Model):
    mailbox = models.CharField(_("mailbox (hash)"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("record shown to the table")
        verbose_name_plural = _("records shown to the table")

    def __str__(self) -> str:
        return self.mailbox[:8]


class ForgottenAddress(models.Model):
    digest = models.CharField(_("address (keyed hash)"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("forgotten at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("forgotten address")
        verbose_name_plural = _("forgotten addresses")

    def __str__(self) -> str:
        return self.digest[:8]


class PendingForget(KeepsMailboxKeys):
    email = models.EmailField(_("email"))
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="email")
    requested_at = models.DateTimeField(_("asked at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("request to be forgotten")
        verbose_name_plural = _("requests to be forgotten")
        constraints = [models.UniqueConstraint(fields=["mailbox_key"],
                                               name="pending_forget_one_per_person")]

    def __str__(self) -> str:
        return f"asked {self.requested_at:%Y-%m-%d}"


def keys_that_made_seat_links() -> list[str]:
    return [settings.LINK_KEY, *settings.LINK_KEY_FALLBACKS]


def forgotten_digest(address: str, key: str | None = None) -> str:
    """HMAC(link key, the mailbox the address reaches): what ForgottenAddress keeps."""
    key = settings.LINK_KEY if key is None else key
    return hmac.new(key.encode(), b"forgotten:" + mailbox(address).encode(),
                    hashlib.sha256).hexdigest()


def remember_forgotten(address: str) -> None:
    ForgottenAddress.objects.get_or_create(digest=forgotten_digest(address))


def forgotten_among(addresses: Iterable[str]) -> set[str]:
    """Those of `addresses` that asked to be forgotten (one query, none for no address)."""
    wanted = {forgotten_digest(address, key): address
              for address in {a for a in addresses if a} for key in keys_that_made_seat_links()}
    if not wanted:
        return set()
    found = ForgottenAddress.objects.filter(digest__in=list(wanted)).values_list(
        "digest", flat=True)
    return {wanted[digest] for digest in found}


def is_forgotten(address: str) -> bool:
    return bool(forgotten_among([address]))
