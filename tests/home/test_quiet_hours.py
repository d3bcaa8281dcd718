"""Quiet hours set on the home: emails inside them wait for their end; a fixed-pace
turn begun inside them counts from their end; a bank is not charged for them; bad hours
are refused and change nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import engine
from games.mail import send
from games.models import Notification, Seat
from games.models.home_links import home_link
from games.play import game_setup
from games.play.clock.clock_setup import clock_settings
from tests.support import START, GameWithLinks, make_game, seat_move

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def home_of(address: str) -> str:
    return home_link(address).split("127.0.0.1:8000", 1)[1]


def pass_turn(g: GameWithLinks) -> None:
    game = g.refresh()
    state = game.state()
    move = next(m for m in engine.legal_moves(state) if m["type"] == "pass")
    assert state.actor is not None
    seat = Seat.objects.get(game=game, number=state.actor)
    seat_move(seat, game.version, {k: v for k, v in move.items() if k != "seat"})


def test_quiet_hours_hold_the_turn_email_and_start_the_clock_at_their_end(
        client: Client, clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    home = home_of("p1@example.com")
    assert 'name="quiet_from"' in client.get(home).content.decode()
    assert client.post(home + "quiet", {"quiet_from": "22", "quiet_to": "8"}).status_code == 302
    assert Seat.objects.get(pk=g.seats[1].pk).quiet_from == 22
    clock.move_to(START.replace(hour=23))  # Monday 23:00 UTC: p1's quiet hours
    mail.outbox.clear()
    with commit():
        pass_turn(g)
    game = g.refresh()
    assert game.actor == 1
    tuesday_8 = START.replace(hour=8) + timedelta(days=1)
    assert game.deadline_at == tuesday_8 + 24 * HOUR  # from the end of the quiet hours
    assert not [m for m in mail.outbox if m.to == ["p1@example.com"]]
    held = Notification.objects.get(kind="turn", seat=g.seats[1])
    assert held.not_before == tuesday_8
    clock.move_to(tuesday_8 + timedelta(hours=1))
    # The beat sends what waited once its time has come (games.mail.send.unsent).
    with commit():
        for pk in send.unsent(tuesday_8 + timedelta(hours=1)):
            send.deliver(pk)
    assert [m for m in mail.outbox if m.to == ["p1@example.com"] and "turn" in m.subject]


def test_a_bank_is_not_charged_for_quiet_hours(client: Client, clock: Any,
                                                commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=False, clock=clock_settings(bank_hours=24))
    client.post(home_of("p0@example.com") + "quiet", {"quiet_from": "22", "quiet_to": "8"})
    with commit():
        game_setup.start_game(g.game.pk)
    # Monday 09:00 UTC: 13 running hours to 22:00, then 11 more from Tuesday 08:00.
    assert g.refresh().deadline_at == START + timedelta(days=1, hours=10)


@pytest.mark.parametrize("bad", [{"quiet_from": "22"}, {"quiet_from": "5", "quiet_to": "5"},
                                 {"quiet_from": "8", "quiet_to": "23"},
                                 {"quiet_from": "x", "quiet_to": "3"}])
def test_bad_quiet_hours_are_refused_and_change_nothing(client: Client, commit: Any,
                                                        bad: dict[str, str]) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    before = g.refresh().deadline_at
    answer = client.post(home_of("p0@example.com") + "quiet", bad, follow=True)
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "quiet hours" in text.lower() and "Saved for your" not in text
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert (seat.quiet_from, seat.quiet_to) == (None, None)
    assert g.refresh().deadline_at == before
