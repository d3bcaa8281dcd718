"""A player's home link (/me/<token>/): one private link per person (per mailbox key,
games.people.core.mailboxes), opening the page of every game that person plays (games.home).

Built like a seat's own link (games.seats.core.links): token = HMAC-SHA256(link key,
"home-link:" + the address's mailbox key + ":" + generation). The database holds the
address as first given, its mailbox key's hash, the generation, the sha256 of the token
and which link key made it, never the token: a dump alone cannot rebuild a home link, the
server can, for every email's footer. "Give me a new home link" adds one to the
generation: the old token's hash is gone at once, so the old link opens nothing.

The row also keeps what the address chose on its home as its defaults (language, time
zone), read by the setup page (games.setup.core.player_defaults), and its pages' theme.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.kit.link_tokens import hash_token, key_id, keyed_token, rebuilt_with, token_digest
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField, of_mailbox
from games.people.core.mailboxes import ASCII_LOWER, mailbox_key


def home_address(address: str) -> str:
    """The form a home keeps (and shows) its address in: trimmed, ASCII letters in lower
    case; nothing else changed (the person is its mailbox key)."""
    return address.strip().translate(ASCII_LOWER)


class HomeLink(KeepsMailboxKeys):
    # The address as first given (home_address: what the home shows); one home per person.
    address = models.CharField(_("email"), max_length=254)
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="address")
    generation = models.PositiveIntegerField(_("generation"), default=1)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    link_key_id = models.CharField(max_length=12, editable=False, default="", blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True, default="")
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    rotated_at = models.DateTimeField(_("link last rotated"), null=True, blank=True)
    # "Next game waiting for you (n)" on the seat pages, the home and the digest
    # (games.home.services.next_game); the person may turn it off.
    next_game_offered = models.BooleanField(_("offer the next game"), default=True)
    # The pages' colours (games.home.services.theme): "" follows the device's setting.
    theme = models.CharField(_("theme"), max_length=8, blank=True, default="")

    class Meta:
        verbose_name = _("home link")
        verbose_name_plural = _("home links")
        constraints = [models.UniqueConstraint(fields=["mailbox_key"],
                                               name="home_link_one_per_person")]

    def __str__(self) -> str:
        return f"home link {self.pk}"


def home_token_for(address: str, generation: int, key: str | None = None) -> str:
    """Made from the mailbox key: the same for every spelling of one person's address,
    and for no one else's."""
    return keyed_token(f"home-link:{mailbox_key(address)}:{generation}", key)


def _rebuilt(row: HomeLink) -> str | None:
    """The row's token under the link key that made it (LINK_KEY or a fallback)."""
    return rebuilt_with([settings.LINK_KEY, *settings.LINK_KEY_FALLBACKS], row.link_key_id,
                        lambda key: home_token_for(row.address, row.generation, key),
                        row.token_hash)


def _renew(row: HomeLink) -> str:
    """A new generation under the current key: the old token stops working at once."""
    generation = row.generation + 1
    token = home_token_for(row.address, generation)
    HomeLink.objects.filter(pk=row.pk).update(
        generation=generation, token_hash=hash_token(token),
        link_key_id=key_id(settings.LINK_KEY), rotated_at=timezone.now())
    row.generation, row.token_hash = generation, hash_token(token)
    row.link_key_id = key_id(settings.LINK_KEY)
    return token


def home_row(address: str) -> HomeLink:
    """The home link row of the address's person, made (generation 1) on first use."""
    address = home_address(address)
    found = HomeLink.objects.filter(of_mailbox(address)).first()
    if found is not None:
        return found
    token = home_token_for(address, 1)
    try:
        with transaction.atomic():
            return HomeLink.objects.create(address=address, token_hash=hash_token(token),
                                           link_key_id=key_id(settings.LINK_KEY))
    except IntegrityError:  # made at the same moment by another email
        return HomeLink.objects.get(of_mailbox(address))


def home_token(address: str) -> str:
    """The address's current home token (rebuilt; renewed when no configured key made it,
    so that what an email carries opens the home). Never log it."""
    row = home_row(address)
    token = _rebuilt(row)
    return token if token is not None else _renew(row)


def rotate_home_token(address: str) -> str:
    """A new home token for the address; the old one opens nothing from now on."""
    with transaction.atomic():
        row = HomeLink.objects.select_for_update().get(pk=home_row(address).pk)
        return _renew(row)


def home_row_of_token(token: str) -> HomeLink | None:
    digest = token_digest(token)
    if digest is None:
        return None
    found = HomeLink.objects.filter(token_hash=digest).first()
    if found is None or not hmac.compare_digest(found.token_hash, digest):
        return None
    return found


def next_game_offered(address: str) -> bool:
    """Whether the person wants the "next game" button (on unless turned off)."""
    return home_choices(address).next_game_offered


# The home's theme switch: "" is "as my device" (the pages follow prefers-color-scheme).
THEMES = ("", "light", "dark")


def theme_of(address: str) -> str:
    """The theme the person chose on their home ("" when none: the device decides), which
    the server writes on their home's and seat pages' <html> so the page never flashes."""
    return home_choices(address).theme


@dataclass(frozen=True)
class HomeChoices:
    """What a person's home says for their pages, from one read of it (a seat page wants
    the theme, the "next game" button and the home's token): None, no home yet."""

    row: HomeLink | None

    @property
    def next_game_offered(self) -> bool:
        return self.row is None or self.row.next_game_offered is not False

    @property
    def theme(self) -> str:
        return self.row.theme if self.row is not None and self.row.theme in THEMES else ""

    def token(self) -> str | None:
        """The home's token if a configured key rebuilds it, else None. Writes nothing (a
        GET page may call it). Never log it."""
        return _rebuilt(self.row) if self.row is not None else None


def home_choices(address: str) -> HomeChoices:
    """The person's home as their pages read it: one query, writing nothing."""
    return HomeChoices(HomeLink.objects.filter(of_mailbox(home_address(address))).first())


def next_game_link(address: str) -> str:
    """The absolute link that opens the address's most urgent game (its home's "next"),
    for its own emails only."""
    return settings.SITE_URL + reverse("games:me-next", args=[home_token(address)])


def home_path(token: str) -> str:
    return reverse("games:me-home", args=[token])


def home_link(address: str) -> str:
    """The address's absolute home link (for its own emails only)."""
    return settings.SITE_URL + home_path(home_token(address))
