"""Seeded self-play of 100 whole games of each ruleset (base: 3 to 10 seats; Saboteur 2:
2 to 12), invariants after every move (Saboteur 2 adds: dwarf cards conserved, 10 cards
set aside).

Every move of every game checks: card and gold counts, hand sizes, exactly one seat to
act, the JSON round trip of the state, that a sampled listed move applies and a random
unlisted one is refused. At every round boundary and every 25th move the checks are
complete: the full card census and the round trip with the log through JSON text.
Every seat's view (and the spectator's) is checked for leaks after every third move
(and at every round boundary) in the first game of each seat count, and at every round
boundary and every 50th move in the rest: 11 full views after each of some 70,000 moves
would take the suite far past its time budget (after every move in those first games
they were 12 of the self-play's 29 CPU seconds).

100 games a ruleset (1,000 at first, then 500, 300 and 200): at 200 the self-play was
still some 200 CPU seconds of the whole suite's (measured per test), and every seat count
still plays 9 games or more, every base option variant a dozen or more; random positions,
legal placements against an oracle and exact replay are test_properties.py's (hypothesis),
and the bots' own self-play (tests/bots) plays on top.
"""

from __future__ import annotations

import pytest

from .selfplay import play_checked

pytestmark = pytest.mark.slow  # 200 whole games: not in `run.py test --quick`

GAMES = 100  # per ruleset
BATCH = 25  # a test each: small enough for the two workers to finish together
SEATS = {"base": range(3, 11), "saboteur2": range(2, 13)}
FULL_LEAK_GAMES = {"base": 8, "saboteur2": 11}  # one game of each seat count
SEED_BASE = {"base": 0, "saboteur2": 10_000}


def options_for(ruleset: str, game: int) -> dict[str, object] | None:
    """The base game's options, varied across games; Saboteur 2 has none."""
    if ruleset != "base":
        return None
    if game % 7 == 3:
        return {"gold_cards": "diggers"}
    return {"sabotaged_get_no_gold": True} if game % 7 == 5 else None


@pytest.mark.parametrize("batch", range(GAMES // BATCH))
@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_self_play_batch(ruleset: str, batch: int) -> None:
    seats = SEATS[ruleset]
    for game in range(batch * BATCH, (batch + 1) * BATCH):
        count = seats[game % len(seats)]
        final = play_checked(count, seed=SEED_BASE[ruleset] + game, ruleset=ruleset,
                             leaks_every=3 if game < FULL_LEAK_GAMES[ruleset] else 50,
                             options=options_for(ruleset, game))
        assert final.finished and len(final.scores) == count
        if ruleset == "base":
            assert sum(final.scores) <= 44  # never more gold than the box holds
