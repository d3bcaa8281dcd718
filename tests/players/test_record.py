"""A player's record: games played and finished, rounds won by role, gold, deadlines
missed and seats taken over, against games played through the move service; shown to
the table only when the player allows it."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import engine, tasks
from games.game.core.game import Game
from games.handover.services import opening, takeover
from games.ratings.services.player_record import player_record, set_record_shown
from tests.players.play import play_moves, round_ends
from tests.support import START, make_game

pytestmark = pytest.mark.django_db
# A seed whose seat that won the first round wins the second too, while a bot holds it.
SEED_BOT_WINS = 2


def expected_rounds(game: Game, seat: int) -> Counter[str]:
    return won_in(round_ends(game), seat)


def won_in(ends: list[dict[str, Any]], seat: int) -> Counter[str]:
    """What the table saw at each of these rounds' ends: the seat's role and whether it
    was paid as a winner (Saboteur 2 lists the seats) or was on the winning side (base
    game)."""
    won: Counter[str] = Counter()
    for event in ends:
        role = event["roles"][seat]
        if "winning_seats" in event:
            if seat in event["winning_seats"]:
                won[role] += 1
        elif (event["winners"], role) in (("gold-diggers", "gold-digger"),
                                          ("saboteurs", "saboteur")):
            won[role] += 1
    return won


@pytest.mark.parametrize(("ruleset", "players", "seed"), [("base", 4, 21),
                                                         ("saboteur2", 5, 22)])
def test_the_record_counts_a_finished_game_and_one_under_way(
        ruleset: str, players: int, seed: int) -> None:
    finished = play_moves(make_game(players=players, seed=seed, ruleset=ruleset), seed)
    assert finished.status == Game.Status.FINISHED
    under_way = play_moves(make_game(players=players, seed=seed + 1, ruleset=ruleset),
                           seed, count=5)
    assert under_way.status == Game.Status.ACTIVE
    make_game(players=players, seed=3, start=False)  # not dealt yet: not played
    for seat in range(players):
        record = player_record(f"P{seat}@Example.com")  # as the player types it
        assert (record.games_played, record.games_finished) == (2, 1)
        won = expected_rounds(finished, seat) + expected_rounds(under_way, seat)
        assert record.rounds_won == dict(won)
        assert record.gold == finished.state().scores[seat]
    assert len(round_ends(finished)) == 3
    if ruleset == "saboteur2":  # its roles count apart
        roles = {role for seat in range(players)
                 for role in player_record(f"p{seat}@example.com").rounds_won}
        assert roles - {"gold-digger", "saboteur"}
    assert player_record("nobody@example.com").games_played == 0


def test_the_record_takes_the_same_few_queries_for_many_games() -> None:
    for seed in range(6):
        play_moves(make_game(players=3, seed=seed), seed, count=20)
    with CaptureQueriesContext(connection) as queries:
        record = player_record("p0@example.com")
    assert record.games_played == 6
    assert len(queries) == 3


def test_missed_deadlines_stay_with_who_missed_them_and_takeovers_count_for_the_newcomer(
        clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    clock.move_to(START + timedelta(days=1))
    with commit():
        tasks.sweep_deadlines()
    assert player_record("p0@example.com").deadlines_missed == 1
    with commit():
        row = opening.open_seat(g.seats[0].pk)
        takeover.take_over(row.pk, takeover.Newcomer(name="Nora", email="nora@x.org",
                                                     language="en"))
    nora = player_record("nora@x.org")
    assert (nora.seats_taken_over, nora.deadlines_missed, nora.games_played) == (1, 0, 1)
    assert player_record("p0@example.com").deadlines_missed == 1


def test_who_left_keeps_the_rounds_won_before_and_the_newcomer_the_rest_and_the_result(
        commit: Any) -> None:
    """docs/RULES.md part 4: a round is won by whoever held the seat when it ended; the
    game's result (finished, the gold) is the seat's, so its holder's at the end."""
    from games.seatview.services.facts import round_winners
    from tests.support import choose, move_for

    g = make_game(players=4, seed=22)
    rng = random.Random(22)
    while not round_ends(g.refresh()):
        move_for(g.game.pk, g.game.version, choose(engine.legal_moves(g.game.state()), rng))
    [first] = round_ends(g.game)
    seat = min(round_winners(first))  # a winner of round 1 leaves (seed 22: one won)
    leaver = f"p{seat}@example.com"
    with commit():
        row = opening.open_seat(g.seats[seat].pk)
        takeover.take_over(row.pk, takeover.Newcomer(name="Nora", email="nora@x.org",
                                                     language="en"))
    game = play_moves(g, 22)
    assert game.status == Game.Status.FINISHED and len(round_ends(game)) == 3
    before, after = round_ends(game)[:1], round_ends(game)[1:]
    left = player_record(leaver)
    assert (left.games_played, left.games_finished, left.gold) == (1, 0, 0)
    assert left.rounds_won == dict(won_in(before, seat)) and left.rounds_won_total == 1
    nora = player_record("nora@x.org")
    assert (nora.games_played, nora.games_finished) == (1, 1)
    assert nora.rounds_won == dict(won_in(after, seat))
    assert nora.gold == game.state().scores[seat]


def test_the_table_sees_a_record_only_when_its_player_allows_it(client: Client) -> None:
    g = make_game(players=3, seed=4)
    play_moves(make_game(players=3, seed=5), 5)
    line = "2 games"
    assert line not in client.get(g.page(1)).content.decode()
    set_record_shown("p0@example.com", shown=True)
    others = client.get(g.page(1)).content.decode()
    assert line in others and "rounds won" in others
    own = client.get(g.page(0)).content.decode()
    assert line not in own  # beside the name, for the other players
    set_record_shown("p0@example.com", shown=False)
    assert line not in client.get(g.page(1)).content.decode()


def test_a_round_won_while_a_bot_held_the_seat_is_nobody_s(commit: Any) -> None:
    """docs/RULES.md part 4: the round is whoever held the seat when it ended; a bot
    holding a seat that looks for a new player is nobody, although its row in the seat's
    history keeps the address the seat had (the one who left)."""
    from games.seatview.services.facts import round_winners
    from tests.support import choose, move_for

    g = make_game(players=4, seed=SEED_BOT_WINS)
    rng = random.Random(SEED_BOT_WINS)

    def to_round_end(count: int) -> None:
        while len(round_ends(g.refresh())) < count:
            move_for(g.game.pk, g.game.version,
                     choose(engine.legal_moves(g.game.state()), rng))

    to_round_end(1)
    [first] = round_ends(g.game)
    seat = min(round_winners(first))
    leaver = f"p{seat}@example.com"
    with commit():
        row = opening.open_seat(g.seats[seat].pk)  # a bot plays it while it is open
    to_round_end(2)
    second = round_ends(g.game)[1]
    assert seat in round_winners(second)  # the seed's point: the bot's round was won
    with commit():
        takeover.take_over(row.pk, takeover.Newcomer(name="Nora", email="nora@x.org",
                                                     language="en"))
    game = play_moves(g, SEED_BOT_WINS)
    ends = round_ends(game)
    left, nora = player_record(leaver), player_record("nora@x.org")
    assert left.rounds_won == dict(won_in(ends[:1], seat))
    assert nora.rounds_won == dict(won_in(ends[2:], seat))
