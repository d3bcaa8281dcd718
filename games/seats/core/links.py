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
accepted (`Seat.invitation_open`), so nobody but the player holds a working link.

Tokens are 256 bits (43 url-safe characters). Lookup goes by hash, then the stored hash
is compared in constant time.
"""

from __future__ import annotations

import hmac
import logging

from django.conf import settings
from django.db.models import Q
from django.urls import reverse

from games.game.core.game import Game
from games.kit.link_tokens import (
    hash_token,
    keyed_token,
    keys_that_made_seat_links,
    link_keys,
    rebuilt_with,
    token_digest,
)
from games.seats.core.seat import Seat
from games.seats.core.seat_secrets import token_for

log = logging.getLogger("games")


def rebuilt_token(seat: Seat) -> str | None:
    """The seat's own link rebuilt with the configured key that made it (checked against
    its stored hash), or None when none of them did."""
    return rebuilt_with(keys_that_made_seat_links(), seat.link_key_id,
                        lambda key: token_for(seat.link_salt, key), seat.secret_hash)


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
        made = seat.rotate_link()
        if made is not None:
            log.warning("seat %s: no configured key made its link: it has a new one",
                        seat.pk)
            return made.token
        # Another email replaced it at the same moment: that new link is the one.
        seat.refresh_from_db(fields=["link_salt", "secret_hash", "link_key_id"])
    raise RuntimeError(f"seat {seat.pk}: its link keeps changing")


def link_for(seat: Seat) -> str:
    """The seat's current absolute own link (for emails); never log it."""
    return seat_link(token_of_seat(seat))


def find_seat(token: str, *, with_game: bool = False) -> Seat | None:
    """The seat whose own link, or whose still-open invitation link, carries `token`;
    None when wrong, rotated, used up or malformed. A seat found by its invitation has
    `seat.via_invitation` set. Its game loads when first used, or in the same query
    (`with_game`: for a page that shows it)."""
    digest = token_digest(token)
    if digest is None:
        return None
    found = Seat.objects.filter(Q(secret_hash=digest) | Seat.invitation_open(digest))
    return pick_seat(list(found.select_related("game") if with_game else found), digest)


def pick_seat(found: list[Seat], digest: str) -> Seat | None:
    """Of the seats a lookup by the token's hash found, the one the token opens (hashes compared in
    constant time): its own link first, else a still-open invitation."""
    for seat in found:
        if hmac.compare_digest(seat.secret_hash, digest):
            seat.via_invitation = False
            return seat
    for seat in found:
        if (seat.invite_hash and not seat.accepted
                and hmac.compare_digest(seat.invite_hash, digest)):
            seat.via_invitation = True
            return seat
    return None


def seat_path(token: str) -> str:
    return reverse("games:seat", args=[token])


def seat_link(token: str) -> str:
    """The absolute link for emails and the command line (SITE_URL + path)."""
    return settings.SITE_URL + seat_path(token)


def confirm_token(game: Game, key: str | None = None) -> str:
    """The token of the host's confirmation link (and host's page) under a link key
    (LINK_KEY by default): rebuilt from the game when an email is written; only its
    sha256 is stored."""
    return keyed_token(f"host-confirm:{game.pk}:{game.public_id}", key)


def is_confirm_token(game: Game, token: str) -> bool:
    """Whether `token` is the game's host token under LINK_KEY or one of its fallbacks
    (a host link emailed before the key was rotated keeps working)."""
    return any(hmac.compare_digest(confirm_token(game, key), token) for key in link_keys())


def rebuilt_confirm_token(game: Game) -> str | None:
    """The game's current host token, rebuilt under the link key that made it (None
    when no configured key did)."""
    if not game.host_token_hash:
        return None
    return rebuilt_with(link_keys(), "", lambda key: confirm_token(game, key),
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


