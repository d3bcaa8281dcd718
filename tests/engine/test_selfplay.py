"""Seeded self-play of 1,000 whole base games (3 to 10 seats), invariants after every move.

Every move of every game checks: card and gold counts, hand sizes, exactly one seat to
act, the JSON round trip of the state, that a sampled listed move applies and a random
unlisted one is refused. At every round boundary and every 25th move the checks are
complete: the full card census and the round trip with the log through JSON text.
Every seat's view (and the spectator's) is checked for leaks after every move in the
first 16 games (two of each seat count), and at every round boundary and every 50th
move in the rest: 11 full views after each of some 300,000 moves would take the suite
far past its time budget.
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
        final = play_checked(seats, seed=game, leaks_every=1 if game < 16 else 50,
                             options=options)
        assert final.finished and len(final.scores) == seats
        assert sum(final.scores) <= 44
