"""Private links' tokens: HMAC-SHA256 under a link key (LINK_KEY, its fallbacks), 256
bits, url-safe; the database keeps only a token's sha256 and which key made it (a
fingerprint), so the server can make a link again and a dump alone cannot
(docs/operations.md "Links and their keys"). Seat links (games.seats.core.links), homes,
standby and offers are built from these."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")  # 32 bytes, url-safe base64 without "="


def new_salt() -> str:
    return secrets.token_hex(16)


def key_id(key: str) -> str:
    """A public fingerprint of a link key (which key made a seat's link)."""
    return hashlib.sha256(b"link-key-id:" + key.encode()).hexdigest()[:12]


def keys_that_made_seat_links() -> list[str]:
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


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def token_digest(token: object) -> str | None:
    """The sha256 a seat lookup goes by, or None for what cannot be a token."""
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        return None
    return hash_token(token)


def link_keys() -> list[str]:
    return [settings.LINK_KEY, *settings.LINK_KEY_FALLBACKS]


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
    return rebuilt_with(link_keys(), "", lambda key: purpose_token(purpose, salt, key),
                        digest)


def new_purpose_link(purpose: str) -> PurposeLink:
    """A new salt and its token under the current link key (only the hash is stored)."""
    salt = new_salt()
    token = purpose_token(purpose, salt)
    return PurposeLink(salt=salt, token=token, digest=hash_token(token))
