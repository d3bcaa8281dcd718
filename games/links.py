"""Private seat links: a random token per seat; only its sha256 is stored.

A token is `secrets.token_urlsafe(32)` (256 bits). A database dump holds only the
hashes, from which no link can be rebuilt. Lookup goes by hash, then the stored
hash is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from django.conf import settings
from django.urls import reverse

from .models import Seat

TOKEN_BYTES = 32
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")  # what token_urlsafe(32) gives


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def find_seat(token: str) -> Seat | None:
    """The seat whose link carries `token`, or None (wrong, rotated or malformed)."""
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        return None
    digest = hash_token(token)
    seat = Seat.objects.select_related("game").filter(secret_hash=digest).first()
    if seat is None or not hmac.compare_digest(seat.secret_hash, digest):
        return None
    return seat


def seat_path(token: str) -> str:
    return reverse("games:seat", args=[token])


def seat_link(token: str) -> str:
    """The absolute link for emails and the command line (SITE_URL + path)."""
    return settings.SITE_URL + seat_path(token)
