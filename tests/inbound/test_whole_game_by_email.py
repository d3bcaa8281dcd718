"""A whole game played by email replies only: every turn is a command in the reply to the
newest email carrying that seat's token, in the seat's own language's words."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core import mail
from django.test import override_settings

from games import engine
from games.game.core.game import Move
from games.seats.core.seat import Seat
from games.seatview.core import command_words as kw
from games.seatview.core.move_commands import command_for
from tests.email_support import dig
from tests.inbound_support import reply_address, send_reply
from tests.support import choose, make_game, replayed

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # a whole game


@override_settings(INBOUND_ANSWERS_PER_HOUR=10_000)
# Saboteur 2, seed 25: 155 moves (seed 3: 243), every kind the assertions below want.
@pytest.mark.parametrize(("ruleset", "players", "seed"), [("base", 3, 5), ("saboteur2", 3, 25)])
def test_a_whole_game_played_by_email_replies(commit: Any, ruleset: str, players: int,
                                              seed: int) -> None:
    with commit():
        g = make_game(players=players, seed=seed, start=True, ruleset=ruleset)
    # Three seats a game, each in its own language: the two games between them reply in
    # all five (base: the first three, Saboteur 2: the last two and the first).
    language = {n: kw.LANGUAGES[(n + (3 if ruleset == "saboteur2" else 0)) % 5]
                for n in range(players)}
    for number, seat in enumerate(g.seats):
        Seat.objects.filter(pk=seat.pk).update(language=language[number])
    names = {seat.number: seat.player_name for seat in g.seats}
    rng = random.Random(seed)
    kinds: set[str] = set()
    while not (game := g.refresh()).state().finished:
        state = game.state()
        actor = state.actor
        assert actor is not None
        legal = engine.legal_moves(state)
        move = dig(legal, rng) if ruleset == "base" else choose(legal, rng, special=0.4)
        text = command_for(move, engine.view(state, actor), names, language[actor])
        address = reply_address(f"p{actor}@example.com")
        mail.outbox.clear()
        result = send_reply(commit, address, text, sender=f"p{actor}@example.com")
        assert result.outcome == "moved", (text, result.detail)
        made = Move.objects.get(game=game, number=game.version + 1).move
        assert made == {**move, "seat": actor}
        kinds.add(move["type"])
    assert replayed(g.refresh()).to_json() == g.game.state().to_json()
    assert {"place", "pass"} <= kinds
    assert ("pick_gold" in kinds) if ruleset == "base" else ("action" in kinds)
