"""The secrets a seat is made with: its own link's salt and hash (HMAC of the link key and
the salt: games.seats.core.links says how a link is rebuilt) and an invitation token.
Made here, below the seat, so that the seat's own methods give it a new link."""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass

from games.kit.link_tokens import current_key_id, hash_token, keyed_token, new_salt


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
