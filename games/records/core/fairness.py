"""Commit and reveal: proof that nobody changed a game's deck once it was dealt, nor
any move once it was made.

When a game is created, the server publishes `commitment = sha256("<salt>:<seed>")` as
lowercase hex, with a fresh random salt of 128 bits, on every seat page, in the
invitation and in the API. The seed decides every shuffle (games.engine.rng), so a
published commitment pins the deck. When the game ends, the salt and the seed are
shown; anyone can check the commitment and replay the recorded moves from the seed with
the published engine (`manage.py verifygame`, docs/api.md "Fairness and the game record").

Each move extends a hash chain from the commitment (games.engine.chain); the game row
keeps its head (`Game.chain_head`), every page, turn email and API answer shows it at
that version, and a record that differs from what was played gives other heads from the
first move changed on.
"""

from __future__ import annotations

import secrets
from typing import Any

from games.engine import chain
from games.game.core.game import Game

SALT_BYTES = 16  # 128 bits


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def commitment(salt: str, seed: int) -> str:
    return chain.commitment(salt, seed)



def public_facts(game: Game) -> dict[str, Any]:
    """What anyone at the table may see: the commitment and the chain's head at this
    version always; the salt and the seed once the game is over."""
    facts: dict[str, Any] = {"commitment": game.commitment, "chain": chain_at(game)}
    if game.status == Game.Status.FINISHED:
        facts.update(salt=game.salt, seed=game.seed)
    return facts


def chain_at(game: Game) -> dict[str, Any]:
    """The hash chain's head after `game.version` moves (the version and head of one row)."""
    return {"version": game.version, "head": game.chain_head}


def chain_shown(game: Game) -> dict[str, Any]:
    """The head as pages and emails show it: whole (a tooltip) and its first characters."""
    return {**chain_at(game), "short": chain.short(game.chain_head)}
