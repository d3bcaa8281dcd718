"""Fixtures for the server tests (tests/engine/ has its own)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support import GameWithLinks, make_game


@pytest.fixture
def game_factory(db: None) -> Callable[..., GameWithLinks]:
    return make_game


@pytest.fixture
def game(db: None) -> GameWithLinks:
    """A started 3-seat game, seed 1, every seat accepted."""
    return make_game(players=3, seed=1, start=True)
