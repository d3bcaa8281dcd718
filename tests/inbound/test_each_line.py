"""Each line of a reply is carried out or refused on its own, and the answer names every
line with what became of it (a refused `nudge` once dropped the `say` line under it, and
the answer said nothing of the talk)."""

from __future__ import annotations

import html
from typing import Any, cast

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives

from games.game.core.game import Move
from games.game.core.talk_and_notices import Message
from games.seats.core.seat import Seat
from tests.inbound_support import reply_address, send_reply
from tests.support import make_game

pytestmark = pytest.mark.django_db


def started(commit: Any, language: str = "en") -> Any:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    Seat.objects.filter(game=g.game).update(language=language)
    return g


def answer(address: str) -> tuple[str, str]:
    """The newest answer to `address`: its text, and its HTML's text (tags out)."""
    letter = cast(EmailMultiAlternatives, next(
        m for m in reversed(mail.outbox) if m.to == [address] and m.subject.startswith("Re:")))
    page = str(letter.alternatives[0][0]).replace("<br>", "\n")
    return " ".join(str(letter.body).split()), " ".join(html.unescape(page).split())


def talk(g: Any) -> list[str]:
    return list(Message.objects.filter(game=g.game).order_by("pk").values_list("text",
                                                                               flat=True))


def test_a_refused_nudge_does_not_drop_the_talk_under_it(commit: Any) -> None:
    g = started(commit, language="de")
    address = reply_address("p0@example.com")  # seat 0 is to act: its own turn
    result = send_reply(commit, address, "stups\nsag Hallo zusammen")
    assert talk(g) == ["Hallo zusammen"]
    for body in answer("p0@example.com"):
        assert "„stups“: Nichts wurde getan: Du bist am Zug: spiel ihn." in body
        assert "„sag Hallo zusammen“: Steht jetzt am Tisch." in body
    assert result.outcome == "refused" and g.refresh().version == 0


def test_every_line_is_carried_out_or_refused_and_named_in_the_answer(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    send_reply(commit, address, "Hi all,\nsay good luck\npass 9\npause 2 a cold\nsay ciao")
    assert talk(g) == ["good luck", "ciao"]
    assert g.refresh().pause["days"] == 2 and g.refresh().version == 0
    text, page = answer("p0@example.com")
    for body in (text, page):
        assert body.index("“say good luck”: Posted to the table.") < body.index(
            "“pass 9”: Your move was not made: You have no card 9") < body.index(
            "“pause 2 a cold”: Your pause is proposed to the table.") < body.index(
            "“say ciao”: Posted to the table.")
        assert "Hi all" not in body  # no command: not listed
    assert "Your options:" in text  # the move was refused: what it could be


def test_two_moves_make_neither_and_the_talk_is_still_posted(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    result = send_reply(commit, address, "pass 1\nsay sorry\npass 2")
    assert result.outcome == "refused" and g.refresh().version == 0
    assert talk(g) == ["sorry"]
    text, _page = answer("p0@example.com")
    assert "“pass 1”: Your move was not made: Only one move per email, please." in text
    assert "“pass 2”: Your move was not made: Only one move per email, please." in text
    assert "“say sorry”: Posted to the table." in text


def test_a_reply_to_an_older_email_refuses_its_move_and_posts_its_talk(commit: Any) -> None:
    g = started(commit)
    old = reply_address("p0@example.com")
    assert send_reply(commit, old, "pass 1").outcome == "moved"
    result = send_reply(commit, old, "pass 2\nsay I was too slow")
    assert result.outcome == "stale" and Move.objects.filter(game=g.game).count() == 1
    assert talk(g) == ["I was too slow"]
    text, _page = answer("p0@example.com")
    assert ("“pass 2”: Your move was not made: the game has moved on since the email you "
            "answered (it showed version 0, the game is now at version 1).") in text
    assert "“say I was too slow”: Posted to the table." in text
