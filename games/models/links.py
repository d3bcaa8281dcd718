"""Private seat links: token = HMAC-SHA256(SECRET_KEY, seat's random salt).

The database holds the salt and the token's sha256, never the token: a dump alone
cannot rebuild a link (that needs SECRET_KEY too), yet the server can rebuild it for
every turn email instead of rotating it each time. Rotating = a new salt, so the old
link stops working at once. Tokens are 256 bits (43 url-safe characters). Lookup goes
by hash, then the stored hash is compared in constant time. Changing SECRET_KEY
invalidates every link (the README says so).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

from django.conf import settings
from django.urls import reverse

from games.models import Seat

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")  # 32 bytes, url-safe base64 without "="


def new_salt() -> str:
    return secrets.token_hex(16)


def token_for(salt: str) -> str:
    mac = hmac.new(settings.SECRET_KEY.encode(), b"seat-link:" + salt.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


def new_secret() -> tuple[str, str, str]:
    """(salt, token, token hash) for a new or rotated link."""
    salt = new_salt()
    token = token_for(salt)
    return salt, token, hash_token(token)


def link_for(seat: Seat) -> str:
    """The seat's current absolute link (for emails); never log it."""
    return seat_link(token_for(seat.link_salt))


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
