"""The Reply-To token: 160 random bits, `play+<token>@INBOUND_DOMAIN`, stored hashed.

Base 32 in lower case, because some mail systems change the case of local parts.
A token is bound to the seat and the game version its email showed; a new email (a
retried send, an answer) gets a new token, and every one of them stays valid for its
own version only.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from collections.abc import Iterable
from urllib.parse import urlsplit

from django.conf import settings

from games.models import ReplyToken, Seat

TOKEN_BYTES = 20  # 160 bits
TOKEN_RE = re.compile(r"\bplay\+([a-z2-7]{32})@", re.IGNORECASE)


def inbound_domain() -> str:
    configured = str(getattr(settings, "INBOUND_DOMAIN", "") or "")
    return configured or urlsplit(settings.SITE_URL).hostname or "localhost"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.lower().encode()).hexdigest()


def new_token() -> str:
    return base64.b32encode(secrets.token_bytes(TOKEN_BYTES)).decode().lower()


def reply_address(token: str) -> str:
    return f"play+{token}@{inbound_domain()}"


def issue(seat: Seat, version: int) -> str:
    """A new Reply-To address for the seat's turn at `version`."""
    token = new_token()
    ReplyToken.objects.create(token_hash=token_hash(token), game_id=seat.game_id, seat=seat,
                              version=version)
    return reply_address(token)


def find(addresses: Iterable[str]) -> ReplyToken | None:
    """The token named by the first of `addresses` that carries one, if it is ours."""
    for address in addresses:
        found = TOKEN_RE.search(address or "")
        if found is not None:
            return (ReplyToken.objects.filter(token_hash=token_hash(found.group(1)))
                    .select_related("seat", "game").first())
    return None


def carries_token(addresses: Iterable[str]) -> bool:
    return any(TOKEN_RE.search(address or "") for address in addresses)
