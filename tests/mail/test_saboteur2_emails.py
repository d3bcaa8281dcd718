"""Emails of a whole Saboteur 2 game: the expansion's maze, log lines and the theft
turn, with every email checked for leaks as in tests/mail/test_email_leaks.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

import pytest
import time_machine
from django.core import mail
from django.core.mail import EmailMultiAlternatives

from games import engine
from games.clock.services import misses
from games.game.core.game import Game
from games.seatview.core import maze_s2
from tests.mail.test_email_leaks import START, check_email
from tests.support import choose, make_game, seat_move
from tests.web.test_saboteur2_forms import play_until

pytestmark = pytest.mark.django_db


@time_machine.travel(START, tick=False)  # links in emails carry the time they were signed
def test_no_email_of_an_expansion_game_leaks_a_secret(
        commit: Callable[..., Any]) -> None:
    # Seed 117: a theft, an inspection, ladders and doors in 128 moves (seed 10: 253).
    rng, check_rng = random.Random(117), random.Random(99)
    seen: set[str] = set()
    with commit():
        g = make_game(players=4, seed=117, ruleset="saboteur2")
    checked = 0
    subjects: list[str] = []
    while True:
        game = g.refresh()
        for message in mail.outbox[checked:]:
            check_email(message, game, check_rng, seen)
            subjects.append(str(message.subject))
        checked = len(mail.outbox)
        if game.status != Game.Status.ACTIVE:
            break
        state = game.state()
        move = choose(engine.legal_moves(state), rng, 0.35)
        with commit():
            seat_move(g.seats[state.actor or 0], game.version, move)
    assert {"turn", "round_end", "game_end"} <= seen
    assert any(s.endswith(": steal a nugget") for s in subjects)
    bodies = "\n".join(str(m.body) for m in mail.outbox)
    assert "Crystals in the maze" in bodies and "H: a ladder" in bodies
    assert "inspected the dwarf card of" in bodies or "You inspected" in bodies
    pictures = "\n".join(str(cast(EmailMultiAlternatives, m).alternatives[0][0])
                         for m in mail.outbox)
    assert maze_s2.DOOR["green"] in pictures and maze_s2.LADDER in pictures


def test_a_thief_who_misses_the_deadline_steals_from_the_first_player_offered(
        commit: Callable[..., Any]) -> None:
    g = make_game(players=4, seed=10, ruleset="saboteur2")
    rng = random.Random(10)
    state = play_until(g, lambda s: s.phase == "theft", lambda s, legal: choose(legal, rng, 0.35))
    thief, first = state.actor, engine.legal_moves(state)[0]
    game = g.refresh()
    assert thief is not None and game.deadline_at is not None
    mail.outbox.clear()
    with commit():
        assert misses.miss_deadline(game.pk, game.version, game.deadline_at) == "passed"
    assert g.refresh().moves.order_by("number").last().move == {  # type: ignore[union-attr]
        **first, "seat": thief}
    missed = [m for m in mail.outbox if m.to == [f"p{thief}@example.com"]
              and "missed the deadline" in str(m.subject)]
    assert len(missed) == 1
    assert (f"it stole a nugget from Player{first['target']}, the first player offered."
            in str(missed[0].body))
