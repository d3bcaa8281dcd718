"""Seeded self-play of 1,000 whole base games (3 to 10 seats), invariants after every move.

Every move of every game checks: cards and gold conserved, hand sizes, exactly one seat
to act, the JSON round trip, that sampled listed moves apply and random unlisted ones are
refused. Seat views are checked for leaks after every move in the first 40 games and
every 10th move (plus the last) in the rest, which keeps the file near a minute.
"""

from __future__ import annotations

import pytest

from .selfplay import play_checked

GAMES = 1000
BATCH = 50


@pytest.mark.parametrize("batch", range(GAMES // BATCH))
def test_self_play_batch(batch: int) -> None:
    for game in range(batch * BATCH, (batch + 1) * BATCH):
        seats = 3 + game % 8
        options = {"gold_cards": "diggers"} if game % 7 == 3 else (
            {"sabotaged_get_no_gold": True} if game % 7 == 5 else None)
        final = play_checked(seats, seed=game, leaks_every=1 if game < 40 else 10,
                             options=options)
        assert final.finished and len(final.scores) == seats
        assert sum(final.scores) <= 44
