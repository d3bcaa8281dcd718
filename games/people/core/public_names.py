"""A player's public name (games.tables.services.naming; docs/playing.md "Your public name"): the
name shown at open tables, in the ratings, in games joined through open tables and on the
player's public page (games.players). Kept by the hash of the person's mailbox key, never
the address.

- PublicName: the name as written, when it was last changed (at most once a month), and
  whether the player's ratings are listed on /ratings/ under it (off until they opt in).
- NameKey: the name's confusable-safe keys (NFKC, case folded, look-alike letters made
  one: `ʙob` and `Bob` share a key). A name with several readings (`B0b` reads `bob` and
  `b0b`) keeps one key per reading; the keys are unique across every name, so two names
  that could be read alike cannot both exist, whoever writes them at the same moment.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PublicName(models.Model):
    mailbox = models.CharField(_("mailbox (hash)"), max_length=64, unique=True)
    name = models.CharField(_("public name"), max_length=30)
    changed_at = models.DateTimeField(_("last changed"), default=timezone.now)
    ratings_listed = models.BooleanField(_("ratings listed publicly"), default=False)

    class Meta:
        verbose_name = _("public name")
        verbose_name_plural = _("public names")

    def __str__(self) -> str:
        return self.name


class NameKey(models.Model):
    owner = models.ForeignKey(PublicName, on_delete=models.CASCADE, related_name="keys")
    key = models.CharField(max_length=120, unique=True)

    def __str__(self) -> str:
        return self.key


def public_names_of(keys: Iterable[str]) -> dict[str, str]:
    """The public names of these people (by the hash of their mailbox key): one query,
    none for nobody."""
    wanted = {key for key in keys if key}
    if not wanted:
        return {}
    return dict(PublicName.objects.filter(mailbox__in=wanted).values_list("mailbox", "name"))
