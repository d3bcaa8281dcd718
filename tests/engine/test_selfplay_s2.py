"""Seeded self-play of 1,000 whole Saboteur 2 games (2 to 12 seats), same invariants as the
base game (see test_selfplay.py), plus dwarf cards conserved and 10 cards set aside."""

from __future__ import annotations

import pytest

from .selfplay import play_checked

GAMES = 1000
BATCH = 50


@pytest.mark.parametrize("batch", range(GAMES // BATCH))
def test_self_play_batch_saboteur2(batch: int) -> None:
    for game in range(batch * BATCH, (batch + 1) * BATCH):
        seats = 2 + game % 11
        final = play_checked(seats, seed=10_000 + game, ruleset="saboteur2",
                             leaks_every=1 if game < 22 else 50)
        assert final.finished and len(final.scores) == seats
