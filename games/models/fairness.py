"""Commit and reveal: proof that nobody changed a game's deck once it was dealt.

When a game is created, the server publishes `commitment = sha256("<salt>:<seed>")` as
lowercase hex, with a fresh random salt of 128 bits, on every seat page, in the
invitation and in the API. The seed decides every shuffle (games.engine.rng), so a
published commitment pins the deck. When the game ends, the salt and the seed are
shown; anyone can check the commitment and replay the recorded moves from the seed with
the published engine (`manage.py verifygame`, README "Fairness").
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from games.models.game import Game

SALT_BYTES = 16  # 128 bits


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def commitment(salt: str, seed: int) -> str:
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def matches(salt: str, seed: int, published: str) -> bool:
    return hmac.compare_digest(commitment(salt, seed), published.lower())


def public_facts(game: Game) -> dict[str, Any]:
    """What anyone at the table may see: the commitment always; the salt and the seed once
    the game is over."""
    facts: dict[str, Any] = {"commitment": game.commitment}
    if game.status == Game.Status.FINISHED:
        facts.update(salt=game.salt, seed=game.seed)
    return facts
