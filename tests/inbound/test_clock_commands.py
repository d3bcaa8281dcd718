"""The clock's email commands: `nudge` and `pause` by reply, whatever the version of the
email answered; a refusal is the answer's "Nothing was done" and changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail

from games import engine
from games.game.core.talk_and_notices import GameNotice
from games.inbound.core.commands import parse_line
from tests.inbound_support import reply_address, send_reply
from tests.support import START, make_game, seat_move

pytestmark = pytest.mark.django_db


def answer_to(address: str) -> str:
    return str(next(m for m in reversed(mail.outbox)
                    if m.to == [address] and m.subject.startswith("Re:")).body)


def test_nudge_by_email_from_an_older_turn_email(clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    address = reply_address("p0@example.com")  # the email of turn 0
    move = next(m for m in engine.legal_moves(g.refresh().state()) if m["type"] == "pass")
    with commit():
        seat_move(g.seats[0], 0, {k: v for k, v in move.items() if k != "seat"})
    result = send_reply(commit, address, "nudge")
    assert result.outcome == "refused"
    assert "Nothing was done: A player can be nudged once more than half" in answer_to(
        "p0@example.com")
    clock.move_to(START + timedelta(hours=13))
    result = send_reply(commit, address, "nudge")
    assert result.outcome == "talk"
    assert any(m.to == ["p1@example.com"] and "Player0 is waiting for your move" in m.subject
               for m in mail.outbox)
    assert GameNotice.objects.get(kind="nudge").params["by"] == 0


def test_pause_by_email_proposes_and_a_second_is_refused(commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    address = reply_address("p0@example.com")
    send_reply(commit, address, "pause 3 Easter trip to Sicilia")
    assert "Your pause is proposed to the table." in answer_to("p0@example.com")
    game = g.refresh()
    assert game.pause["reason"] == "Easter trip to Sicilia" and game.pause["days"] == 3
    result = send_reply(commit, address, "pause 2 again")
    assert result.outcome == "refused"
    assert "one per player per game" in answer_to("p0@example.com")
    result = send_reply(commit, address, "pause soon")
    assert "Write the pause as: pause 3 Easter trip" in answer_to("p0@example.com")
    assert g.refresh().pause == game.pause


@pytest.mark.parametrize(("line", "verb"), [("nudge", "nudge"), ("sollecita", "nudge"),
                                            ("pauze 2 ziek", "pause"), ("pausa fine", "pause")])
def test_the_clock_words_in_each_language(line: str, verb: str) -> None:
    command = parse_line(line)
    assert command is not None and command.verb == verb
