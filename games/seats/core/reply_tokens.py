"""Reply addresses of turn emails (docs/playing.md "Playing by email"): the credential of a move by
email reply, `play+<token>@INBOUND_DOMAIN`.

A token is 160 random bits in base 32, lower case (some mail systems change the case of
local parts). Only its SHA-256 is stored, bound to the seat, the game version its email
showed, and the seat's own link at the time (`link_hash`). A token dies
- when the seat's link changes (a new private link, a replaced player, a takeover): the
  token's `link_hash` no longer matches, even for an email that was being written at that
  very moment;
- when `revoke_seat` deletes the seat's tokens: a seat handed to a bot or back, and every
  change of link (so no dead row lingers).
A reply to a dead token is treated like one to an address we never gave out: nothing is
changed and no answer is sent.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game, SeatKind
from games.seats.core.seat import Seat

TOKEN_BYTES = 20  # 160 bits
TOKEN_RE = re.compile(r"\bplay\+([a-z2-7]{32})@", re.IGNORECASE)
TOKEN_BYTES_RE = re.compile(rb"play\+([a-z2-7]{32})@", re.IGNORECASE)


class ReplyToken(models.Model):
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reply_tokens")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="reply_tokens")
    version = models.PositiveIntegerField(_("at version"))
    # The seat's own link (its hash) when the token was issued: a new link kills the token.
    link_hash = models.CharField(max_length=64, default="", editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("reply token")
        verbose_name_plural = _("reply tokens")

    def __str__(self) -> str:
        return f"seat {self.seat_id} v{self.version}"

    @property
    def is_live(self) -> bool:
        """Whether the seat still has the link (and the player) this token was issued to,
        and a person plays it."""
        return opens(self.seat, self.link_hash)


def opens(seat: Seat, link_hash: str) -> bool:
    """Whether a token issued to the seat's link `link_hash` still opens the seat: the seat
    has that link still, and a person plays it."""
    return (bool(link_hash) and seat.kind == SeatKind.PERSON
            and hmac.compare_digest(link_hash, seat.secret_hash))


@dataclass(frozen=True)
class ReplyDoor:
    """What a live reply address opens: the seat (its game read with it) and the game's
    version the email showed (the version a move by reply is made against)."""

    seat: Seat
    version: int
    token_hash: str  # what an inbound email keeps, to ask again later

    @property
    def game(self) -> Game:
        return self.seat.game


def token_columns() -> dict[str, Subquery]:
    """The reply token's version and link, read in the same statement as a row that holds
    the token's hash and its seat (`token_hash`, `seat`: an inbound email's): annotate
    that row with these, then ask `door_of`."""
    tokens = ReplyToken.objects.filter(token_hash=OuterRef("token_hash"),
                                       seat_id=OuterRef("seat_id"))
    return {"reply_version": Subquery(tokens.values("version")[:1]),
            "reply_link": Subquery(tokens.values("link_hash")[:1])}


def door_of(token_hash: str, seat: Seat | None, version: int | None,
            link_hash: str | None) -> ReplyDoor | None:
    """The door a reply token opens, from its hash, its seat and the `token_columns`
    read with them; None when the token is gone or dead (a new link, a new player, a
    bot)."""
    if seat is None or version is None or link_hash is None or not opens(seat, link_hash):
        return None
    return ReplyDoor(seat, version, token_hash)


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
                              version=version, link_hash=seat.secret_hash)
    return reply_address(token)


def tokens_in(addresses: Iterable[str]) -> list[str]:
    """The reply tokens the addresses carry, in order, each once."""
    found: list[str] = []
    for address in addresses:
        match = TOKEN_RE.search(address or "")
        if match is not None and match.group(1).lower() not in found:
            found.append(match.group(1).lower())
    return found


def _live_tokens(tokens: Iterable[str]) -> dict[str, ReplyToken]:
    """Of `tokens`, those that still open their seat (one query), by token."""
    wanted = {token_hash(token): token for token in tokens}
    if not wanted:
        return {}
    rows = ReplyToken.objects.filter(token_hash__in=list(wanted)).select_related("seat")
    return {wanted[row.token_hash]: row for row in rows if row.is_live}


def find(addresses: Iterable[str]) -> ReplyDoor | None:
    """The door of the live token named by the first of `addresses` that carries one of
    ours (the webhook's resolver; the worker asks again with `token_columns`)."""
    candidates = tokens_in(addresses)
    live = _live_tokens(candidates)
    row = next((live[token] for token in candidates if token in live), None)
    return None if row is None else ReplyDoor(row.seat, row.version, row.token_hash)


def revoke_seat(seat_id: int) -> int:
    """Kill every reply address the seat's emails carry (a new player, link or bot)."""
    deleted, _per_model = ReplyToken.objects.filter(seat_id=seat_id).delete()
    return deleted
