"""What a seat page GET asks of the database: a mid-game seat's page and its live part
(/play/<secret>/live) read it a bounded number of times, whatever the table's size and
talk (bench/seat_page.py measures the page's CPU)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.moves.services.seat_services import post_message
from tests.support import GameWithLinks, choose, make_game, seat_move

pytestmark = pytest.mark.django_db

# The seat and its game, the log, the seats, the notices, the reader's mutes, the talk,
# the records shown, the newest line, the reader's talk read mark, the person's home (the
# theme, the next game); the boxes: a rematch, the disputes, the notes, the open seats.
PAGE_QUERIES = 14
# The same but the home and the boxes (the live part shows none of them).
LIVE_QUERIES = 9


def mid_game(players: int, ruleset: str, moves: int) -> GameWithLinks:
    """A game `moves` moves in, with talk from every seat."""
    g = make_game(players=players, seed=11, ruleset=ruleset)
    rng = random.Random(11)
    for _ in range(moves):
        state = g.refresh().state()
        assert state.actor is not None and not state.finished
        seat_move(g.seats[state.actor], g.game.version,
                  choose(engine.legal_moves(state), rng, 0.35))
    for line in range(2 * players):
        post_message(g.seats[line % players], f"Line {line}")
    return g


@pytest.mark.parametrize(("players", "ruleset", "moves"), [(5, "base", 30),
                                                           (10, "saboteur2", 60)])
def test_a_mid_game_seat_page_reads_the_database_a_bounded_number_of_times(
        client: Client, django_assert_max_num_queries: Any, players: int, ruleset: str,
        moves: int) -> None:
    g = mid_game(players, ruleset, moves)
    page = g.page(g.actor_seat())
    client.get(page)  # the first visit notes its bookkeeping (the turn seen, the talk read)
    with django_assert_max_num_queries(PAGE_QUERIES):
        body = client.get(page).content.decode()
    assert 'class="card-form"' in body and f"Line {2 * players - 1}" in body
    # A seat waiting for its turn: the same, with the "next game" box asked (from the
    # home the page reads once anyway, for its theme).
    waiting = g.page((g.actor_seat() + 1) % players)
    client.get(waiting)
    with django_assert_max_num_queries(PAGE_QUERIES):
        assert "Your hand" in client.get(waiting).content.decode()
    with django_assert_max_num_queries(LIVE_QUERIES):
        live = client.get(page + "live").content.decode()
    assert 'class="card-form"' in live and f"Line {2 * players - 1}" in live


# The seat, its game, the log, the seats (their names and clocks at once).
API_QUERIES = 4


@pytest.mark.parametrize(("players", "ruleset", "moves"), [(5, "base", 30),
                                                           (10, "saboteur2", 60)])
def test_a_mid_game_api_read_reads_the_database_a_bounded_number_of_times(
        client: Client, players: int, ruleset: str, moves: int) -> None:
    """What a script playing one seat polls: `GET /api/play/<secret>/`."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    g = mid_game(players, ruleset, moves)
    api = g.api(g.actor_seat())
    client.get(api)
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(api).json()
    assert answer["legal_moves"] and len(answer["players"]) == players
    assert len(queries) <= API_QUERIES


def test_a_bank_clock_adds_nothing_to_what_an_api_move_and_read_ask(client: Client) -> None:
    """Every seat's bank is in the answer: from the seats the move (or the read) has read
    anyway, so a bank game's move and read ask the database what a plain game's do."""
    from games.clock.core.clock_setup import ClockSettings

    bank = api_statements(client, make_game(players=4, seed=11, clock=ClockSettings(
        bank_hours=72, increment_hours=24)), banks=True)
    plain = api_statements(client, make_game(players=4, seed=11), banks=False)
    assert bank == plain


def api_statements(client: Client, g: GameWithLinks, *, banks: bool) -> tuple[int, int]:
    """How many statements seat 0's API read and then its move (a pass) take."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    api = g.api(0)
    client.get(api)
    with CaptureQueriesContext(connection) as read:
        answer = client.get(api).json()
    assert (answer["clock"]["banks"] is not None) == banks
    move = next(m for m in answer["legal_moves"] if m["type"] == "pass")
    with CaptureQueriesContext(connection) as moved:
        after = client.post(api + "moves", {"version": answer["version"], "move": move},
                            content_type="application/json").json()
    assert after["version"] == answer["version"] + 1
    return len(read), len(moved)
