"""Whole seeded Saboteur 2 games, played to the end through the JSON API and the HTML
forms (the discard form's checkboxes included), with replay and leak checks after
every move (tests/play/test_full_games.py, tests/s2_checks.py).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.game.core.game import Game
from games.seatview.core.recent import view_log
from tests.play.test_full_games import (
    assert_blind_to_secrets,
    check_api_view,
    play_api,
    play_html,
)
from tests.support import GameWithLinks, assert_replay_matches, choose, make_game

pytestmark = pytest.mark.slow  # whole games: not in `run.py test --quick`

S2_EVENTS = {"theft", "hands_off", "swap_hand", "inspection", "swap_hats", "trapped",
             "free_at_last", "free", "steal", "payout"}


def event_counts(game: Game) -> Counter[str]:
    return Counter(e["type"] for e in view_log(engine.moderator_view(game.state())))


def s2_game(players: int, seed: int, **kwargs: Any) -> GameWithLinks:
    return make_game(players=players, seed=seed, ruleset="saboteur2", **kwargs)


@pytest.mark.django_db
def test_whole_expansion_game_through_the_api() -> None:
    g = s2_game(5, 183)  # seed 183: every expansion card and two thefts in 174 moves
    client = Client()
    moves = play_api(client, g, random.Random(183), special=0.35)
    game = g.refresh()
    assert game.status == Game.Status.FINISHED and moves == game.version
    final = client.get(g.api(0)).json()
    assert final["legal_moves"] == [] and final["view"]["winners"] is not None
    assert len(final["view"]["round_results"]) == 3
    seen = event_counts(game)
    missing = S2_EVENTS - set(seen)
    assert not missing, f"the seeded game never played {missing}: {seen}"


@pytest.mark.django_db
def test_whole_expansion_game_through_the_html_forms() -> None:
    # Three seats, seed 226: every expansion card, a theft, nobody to rob once, in 210
    # moves (four seats, seed 10: 247).
    g = s2_game(3, 226)
    play_html(g, random.Random(226), special=0.35)
    game = g.refresh()
    assert game.status == Game.Status.FINISHED
    seen = event_counts(game)
    assert not S2_EVENTS - set(seen), seen
    client = Client()
    body = client.get(g.page(1)).content.decode()
    assert "Final scores" in body and "Paid as winners" in body
    assert "Crystals in the maze" in body
    for number in (1, 2, 3):
        assert f"Round {number}" in body
    assert 'class="card-form"' not in body and 'id="discard-form"' not in body


@pytest.mark.django_db
def test_expansion_pages_and_api_do_not_depend_on_hidden_facts() -> None:
    """Non-interference at positions right after secret events (inspections, new hats,
    discards, payouts, the thefts; every twentieth pass) and every 40 moves: perturbing
    every secret a seat may not know leaves every seat's API answer identical, and the
    pages of two seats (the one that just moved, often the one an event told a secret,
    and one more in turn: a page costs four API answers), and every other time the
    spectator page."""
    g = s2_game(5, 197, spectators_allowed=True)  # 20 positions in 142 moves (23: 24 in 226)
    client = Client()
    rng = random.Random(197)
    secret_events = {"inspection", "swap_hats", "free", "pass", "payout", "steal"}
    checked = 0
    last_log = 0
    mover = 0
    while not g.refresh().state().finished:
        state = g.game.state()
        fresh = {e["type"] for e in state.log[last_log:]}
        last_log = len(state.log)
        secret = fresh & secret_events
        if (secret - {"pass"} or (secret and g.game.version % 20 == 0)
                or g.game.version % 40 == 0 or state.phase == "theft"):
            for seat in range(5):
                assert_blind_to_secrets(client, g.game, g.api(seat), seat, rng)
            for seat in {mover, checked % 5}:
                assert_blind_to_secrets(client, g.game, g.page(seat), seat, rng)
            if checked % 2 == 0:
                assert_blind_to_secrets(client, g.game, f"/watch/{g.game.public_id}/", None,
                                        rng)
            checked += 1
        move = choose(engine.legal_moves(state), rng, special=0.35)
        actor = state.actor
        assert actor is not None
        response = client.post(g.api(actor) + "moves", {"version": g.game.version, "move": move},
                               content_type="application/json")
        assert response.status_code == 200
        mover = actor
    assert checked >= 15, checked


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "seed"), [(2, 111), (12, 79)])  # 174, 162 moves
def test_the_smallest_and_largest_tables_play_to_the_end(players: int, seed: int) -> None:
    """2 and 12 seats: every seat's API answer every 10 moves (12 seats: every 30, each
    check reading twelve) and in every theft, with the structural leak checks, and every
    seat's page every other time (in a theft, the thief's); the moves go through the
    API. The seeds are ones whose games end soonest under this policy."""
    g = s2_game(players, seed, spectators_allowed=True)
    client = Client()
    rng = random.Random(seed)
    while not g.refresh().state().finished:
        state = g.game.state()
        every = 10 if players < 12 else 30
        if g.game.version % every == 0 or state.phase == "theft":
            pages = range(players) if g.game.version % (2 * every) == 0 else [state.actor]
            for seat in range(players):
                check_api_view(client.get(g.api(seat)).json(), state, seat)
                if seat in pages:
                    assert client.get(g.page(seat)).status_code == 200
            assert client.get(f"/watch/{g.game.public_id}/").status_code == 200
        actor = state.actor
        assert actor is not None
        move = choose(engine.legal_moves(state), rng, special=0.35)
        response = client.post(g.api(actor) + "moves", {"version": g.game.version, "move": move},
                               content_type="application/json")
        assert response.status_code == 200, response.content
    assert_replay_matches(g.game)
    assert len(engine.view(g.game.state(), None)["round_results"]) == 3
