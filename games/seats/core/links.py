"""Private seat links and invitation links (docs/operations.md "Links and their keys").

A seat's own link carries token = HMAC-SHA256(link key, "seat-link:" + the seat's random
salt). The database holds the salt, the sha256 of the token and which link key made it
(`link_key_id`, a fingerprint, never the key): a dump alone cannot rebuild a link, the
server (database + link key) can, for every turn email, without rotating the link each
time. Link keys are their own setting (LINK_KEY, LINK_KEY_FALLBACKS; required without
DEBUG), independent of SECRET_KEY: changing SECRET_KEY leaves every link working; retiring
a link key is done by `manage.py rotatelinks`, which gives every open seat a new salt
under the current key and emails the new links. An email never carries a link that does
not open its seat: a seat whose link no configured key rebuilds gets a new one first
(`token_of_seat`).

An invitation link is a second, random token per seat (only its sha256 is stored): it is
what a host or an operator is shown, and it stops working once the seat's player has
accepted (games.seats.services.acceptance.accept_seat), so nobody but the player holds a working
link.

Tokens are 256 bits (43 url-safe characters). Lookup goes by hash, then the stored hash
is compared in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.game.core.game import Game
from games.seats.core.seat import Seat

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")  # 32 bytes, url-safe base64 without "="

log = logging.getLogger("games")


def new_salt() -> str:
    return secrets.token_hex(16)


def key_id(key: str) -> str:
    """A public fingerprint of a link key (which key made a seat's link)."""
    return hashlib.sha256(b"link-key-id:" + key.encode()).hexdigest()[:12]


def _keys() -> list[str]:
    """Every key that may have made a link still in use: the link keys, then SECRET_KEY and
    its fallbacks (links made before LINK_KEY was a setting of its own were made with
    SECRET_KEY; new links never are)."""
    return [settings.LINK_KEY, *settings.LINK_KEY_FALLBACKS, settings.SECRET_KEY,
            *getattr(settings, "SECRET_KEY_FALLBACKS", [])]


def current_key_id() -> str:
    return key_id(settings.LINK_KEY)


def keyed_token(message: str, key: str | None = None) -> str:
    """The URL-safe HMAC-SHA256 of `message` under a link key (LINK_KEY by default): every
    private link (seats, homes, standby and offers) is one, so any can be made again."""
    key = settings.LINK_KEY if key is None else key
    mac = hmac.new(key.encode(), message.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


def rebuilt_with(keys: list[str], named_key_id: str, make: Callable[[str], str],
                 digest: str) -> str | None:
    """The token `make(key)` whose hash is `digest`, trying the key `named_key_id` names
    first (one HMAC in the usual case), or None when none of `keys` made it."""
    for key in sorted(keys, key=lambda key: key_id(key) != named_key_id):
        token = make(key)
        if hmac.compare_digest(hash_token(token), digest):
            return token
    return None


def token_for(salt: str, key: str | None = None) -> str:
    return keyed_token("seat-link:" + salt, key)


@dataclass(frozen=True)
class NewSecret:
    salt: str
    token: str
    digest: str
    key_id: str


def new_link() -> NewSecret:
    """A new or rotated own link, under the current link key."""
    salt = new_salt()
    token = token_for(salt)
    return NewSecret(salt=salt, token=token, digest=hash_token(token), key_id=current_key_id())


def new_invitation() -> tuple[str, str]:
    """(token, token hash) of an invitation link: random, never rebuilt."""
    token = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode("ascii")
    return token, hash_token(token)


def rebuilt_token(seat: Seat) -> str | None:
    """The seat's own link rebuilt with the configured key that made it (checked against
    its stored hash), or None when none of them did."""
    return rebuilt_with(_keys(), seat.link_key_id, lambda key: token_for(seat.link_salt, key),
                        seat.secret_hash)


def token_of_seat(seat: Seat) -> str:
    """The seat's own link, for an email or the one page that shows it (after accepting).

    When no configured key made it (its link key, or the SECRET_KEY of an old link, was
    changed without being kept as a fallback), the seat gets a new link under LINK_KEY
    first, so that what is sent or shown opens the seat: the link that can no longer be
    rebuilt dies, and nobody is handed one that opens nothing."""
    for _attempt in range(3):
        token = rebuilt_token(seat)
        if token is not None:
            return token
        made = new_link()
        replaced = Seat.objects.filter(pk=seat.pk, secret_hash=seat.secret_hash).update(
            link_salt=made.salt, secret_hash=made.digest, link_key_id=made.key_id,
            link_rotated_at=timezone.now())
        if replaced:
            log.warning("seat %s: no configured key made its link: it has a new one",
                        seat.pk)
            seat.link_salt, seat.secret_hash, seat.link_key_id = (
                made.salt, made.digest, made.key_id)
            return made.token
        # Another email replaced it at the same moment: that new link is the one.
        seat.refresh_from_db(fields=["link_salt", "secret_hash", "link_key_id"])
    raise RuntimeError(f"seat {seat.pk}: its link keeps changing")


def link_for(seat: Seat) -> str:
    """The seat's current absolute own link (for emails); never log it."""
    return seat_link(token_of_seat(seat))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def token_digest(token: object) -> str | None:
    """The sha256 a seat lookup goes by, or None for what cannot be a token."""
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        return None
    return hash_token(token)


def find_seat(token: str) -> Seat | None:
    """The seat whose own link, or whose still-open invitation link, carries `token`;
    None when wrong, rotated, used up or malformed. A seat found by its invitation has
    `seat.via_invitation` set. Its game loads when first used."""
    digest = token_digest(token)
    if digest is None:
        return None
    found = Seat.objects.filter(Q(secret_hash=digest)
                                | Q(invite_hash=digest, accepted_at__isnull=True))
    return pick_seat(list(found), digest)


def pick_seat(found: list[Seat], digest: str) -> Seat | None:
    """Of the seats a lookup by the token's hash found, the one the token opens (hashes compared in
    constant time): its own link first, else a still-open invitation."""
    for seat in found:
        if hmac.compare_digest(seat.secret_hash, digest):
            seat.via_invitation = False
            return seat
    for seat in found:
        if (seat.invite_hash and seat.accepted_at is None
                and hmac.compare_digest(seat.invite_hash, digest)):
            seat.via_invitation = True
            return seat
    return None


def seat_path(token: str) -> str:
    return reverse("games:seat", args=[token])


def seat_link(token: str) -> str:
    """The absolute link for emails and the command line (SITE_URL + path)."""
    return settings.SITE_URL + seat_path(token)


def _link_keys() -> list[str]:
    return [settings.LINK_KEY, *settings.LINK_KEY_FALLBACKS]


def confirm_token(game: Game, key: str | None = None) -> str:
    """The token of the host's confirmation link (and host's page) under a link key
    (LINK_KEY by default): rebuilt from the game when an email is written; only its
    sha256 is stored."""
    return keyed_token(f"host-confirm:{game.pk}:{game.public_id}", key)


def is_confirm_token(game: Game, token: str) -> bool:
    """Whether `token` is the game's host token under LINK_KEY or one of its fallbacks
    (a host link emailed before the key was rotated keeps working)."""
    return any(hmac.compare_digest(confirm_token(game, key), token) for key in _link_keys())


def rebuilt_confirm_token(game: Game) -> str | None:
    """The game's current host token, rebuilt under the link key that made it (None
    when no configured key did)."""
    if not game.host_token_hash:
        return None
    return rebuilt_with(_link_keys(), "", lambda key: confirm_token(game, key),
                        game.host_token_hash)


def _current_confirm_token(game: Game) -> str:
    """The host token an email carries: the one the host holds, rebuilt under the key
    that made it; when no configured key made it, the game takes one under LINK_KEY
    first (the email must open the game)."""
    token = rebuilt_confirm_token(game)
    if token is not None:
        return token
    token = confirm_token(game)
    if game.host_token_hash != hash_token(token):
        Game.objects.filter(pk=game.pk, host_token_hash=game.host_token_hash).update(
            host_token_hash=hash_token(token))
        game.host_token_hash = hash_token(token)
    return token


def confirm_link(game: Game) -> str:
    """The host's confirmation link, for the email."""
    return settings.SITE_URL + reverse("games:setup-confirm",
                                       args=[_current_confirm_token(game)])


def host_link(game: Game) -> str:
    """The host's page of the game (games.setup.services.host_view): the confirmation link's token,
    so the host holds one secret per game, of which only the hash is stored."""
    return settings.SITE_URL + reverse("games:host", args=[_current_confirm_token(game)])


# ---- other private links built the same way (games.handover.core.handover_rows) -----------------


@dataclass(frozen=True)
class PurposeLink:
    """A private link for something other than a seat: `purpose` keeps the tokens of
    different kinds apart (an offer's token never opens a volunteer's page)."""

    salt: str
    token: str
    digest: str


def purpose_token(purpose: str, salt: str, key: str | None = None) -> str:
    return keyed_token(f"{purpose}:{salt}", key)


def rebuilt_purpose_token(purpose: str, salt: str, digest: str) -> str | None:
    """The token of a purpose link rebuilt under the link key that made it (LINK_KEY or a
    fallback), or None when none did."""
    return rebuilt_with(_link_keys(), "", lambda key: purpose_token(purpose, salt, key),
                        digest)


def new_purpose_link(purpose: str) -> PurposeLink:
    """A new salt and its token under the current link key (only the hash is stored)."""
    salt = new_salt()
    token = purpose_token(purpose, salt)
    return PurposeLink(salt=salt, token=token, digest=hash_token(token))
