"""A rated tournament's tables are rated games like any other: each round that ends at a
table moves its players' ratings by the model, once, as a rated round of any game does
(games.ratings.services.rounds)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.people.core.mailboxes import mailbox_key_hash
from games.ratings.core.rating_rows import PlayerRating, RatedRound, RatingChange
from games.ratings.core.sides import round_sides
from games.tournaments.core.event_rows import EventTable
from games.tournaments.services import entries, pairing_rounds
from tests.players.play import round_ends
from tests.ratings.support import play_on
from tests.tournaments.support import event

pytestmark = pytest.mark.django_db
PEOPLE = [f"p{n}@example.org" for n in range(3)]


def test_a_rated_events_round_moves_its_players_ratings(clock: Any, commit: Any) -> None:
    # A duplicate event: its deal is the event's seed's, and this one's first round deals
    # a saboteur (a round without one rates nothing, in any game).
    cup = event(rated=True, duplicate=True, rounds=1, seed=2)
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    table = EventTable.objects.select_related("game").get(event_round__tournament=cup)
    assert table.game is not None and table.game.rated
    with commit():
        game = play_on(table.game, rounds=1)
    [end] = round_ends(game)
    sides = round_sides("base", end)
    assert sides  # a winner and a loser
    claim = RatedRound.objects.get(game=game, round=1)
    assert claim.result["counted"] is True
    winners = {n for side in sides if side.won for n in side.seats}
    for seat in game.seats.all():
        rating = PlayerRating.objects.get(mailbox=mailbox_key_hash(seat.email), ruleset="base")
        assert rating.rounds == 1 and (rating.mu > 25) == (seat.number in winners)
        change = RatingChange.objects.get(rated_round=claim, mailbox=rating.mailbox)
        assert (change.seat, change.mu_after) == (seat.number, rating.mu)


def test_an_unrated_events_rounds_move_no_rating(clock: Any, commit: Any) -> None:
    cup = event(rated=False, duplicate=True, rounds=1, seed=2)
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    table = EventTable.objects.select_related("game").get(event_round__tournament=cup)
    assert table.game is not None
    with commit():
        play_on(table.game, rounds=1)
    assert not PlayerRating.objects.exists() and not RatedRound.objects.exists()
