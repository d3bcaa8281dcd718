"""What a turn email and the game-end email tell their reader: the moves since their
last turn (never "you open the game" once someone has moved), and a fingerprint that can
be checked now once the game is over (not "keep it for the end of the game")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core import mail
from django.template.loader import render_to_string

from games.game.core.game import Game
from games.setup.services import game_setup
from tests.email_support import play_one, play_until, sent_to
from tests.support import make_game

pytestmark = pytest.mark.django_db


def turn_bodies(address: str) -> list[str]:
    return [str(m.body) for m in sent_to(address) if "your turn" in str(m.subject)]


def since_part(body: str) -> str:
    return body.split("Since your last turn:", 1)[1].split("The maze", 1)[0]


def test_the_third_player_reads_the_two_moves_before_theirs(commit: Any) -> None:
    g = make_game(players=3, seed=5)
    rng = random.Random(3)
    play_one(g, rng, commit)
    play_one(g, rng, commit)
    assert g.refresh().actor == 2
    (body,) = turn_bodies("p2@example.com")
    since = since_part(body)
    assert "Player0 " in since and "Player1 " in since
    assert "Nothing yet" not in body and "you open the game" not in body


def test_the_first_player_reads_that_the_round_begins(commit: Any) -> None:
    mail.outbox.clear()
    g = make_game(players=3, seed=5, start=False)
    with commit():
        game_setup.start_game(g.game.pk)
    (first,) = turn_bodies("p0@example.com")
    assert "Round 1 begins; Player0 plays first." in since_part(first)


@pytest.mark.parametrize(("opening", "said", "not_said"), [
    (True, "Nothing yet: you open the game.", "No move since your last turn."),
    (False, "No move since your last turn.", "you open the game")])
def test_an_empty_story_says_you_open_the_game_only_before_any_move(
        opening: bool, said: str, not_said: str) -> None:
    """A seat that moved last and acts again (a gold picker taking several gold cards in a
    row) has nothing new to read: it does not open the game."""
    for kind in ("txt", "html"):
        context = {"since": [], "opening": opening, "deck_size": 0, "crystals": 0}
        text = render_to_string(f"emails/turn.{kind}", context)
        assert said in text and not_said not in text


def test_the_game_end_email_says_the_fingerprint_can_be_checked_now(commit: Any) -> None:
    g = make_game(players=3, seed=5, start=True)
    game = play_until(g, lambda game: game.status == Game.Status.FINISHED, commit, seed=5)
    assert game.status == Game.Status.FINISHED
    (end,) = [m for m in sent_to("p0@example.com") if "the game is over" in str(m.subject)]
    for part in (str(end.body), str(end.alternatives[0][0])):
        assert "you can check it now" in part
        assert "once the game is over" not in part
    turn = turn_bodies("p1@example.com")[0]
    assert "once the game is over, the game record must give" in turn
