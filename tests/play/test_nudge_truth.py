"""A nudge does not appear from nowhere: before half of the turn's time is gone, the
other seats' pages (and the API's clock) say when the seat to act can be nudged, in the
reader's time zone; the nudge email can be answered with a move like a turn email."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client

from games.seats.core.seat import Seat
from games.seatview.core.dates import local_time
from tests.inbound_support import REPLY_TO, send_reply
from tests.support import START, make_game

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)
WHEN = "You can nudge Player0 from"


def status(client: Client, page: str) -> str:
    return " ".join(client.get(page).content.decode().split())


def test_the_page_and_the_api_say_when_a_nudge_becomes_possible(client: Client,
                                                                 clock: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    Seat.objects.filter(pk=g.seats[1].pk).update(time_zone="Europe/Rome")
    # Half of Player0's 24 hours is gone at 21:00 UTC: 22:00 in Rome.
    half = START + 12 * HOUR
    assert (f"{WHEN} {local_time(half, ZoneInfo('Europe/Rome'))}, once more than half of "
            "their time is gone.") in status(client, g.page(1))
    assert "22:00 (Europe/Rome)" in local_time(half, ZoneInfo("Europe/Rome"))
    assert f"{WHEN} {local_time(half, ZoneInfo('UTC'))}," in status(client, g.page(2))
    assert "You can nudge" not in status(client, g.page(0))  # their own turn
    assert client.get(g.api(1)).json()["clock"]["nudge_from"] == (START + 12 * HOUR).isoformat()
    assert client.get(g.api(0)).json()["clock"]["nudge_from"] is None
    clock.move_to(START + 13 * HOUR)
    page = status(client, g.page(1))
    assert "Nudge Player0" in page and "You can nudge" not in page
    client.post(g.api(1) + "nudge", json.dumps({}), content_type="application/json")
    assert client.get(g.api(2)).json()["clock"]["nudge_from"] is None  # nudged this turn
    assert "You can nudge" not in status(client, g.page(2))


def test_the_nudge_email_can_be_answered_with_a_move(client: Client, clock: Any,
                                                     commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    clock.move_to(START + 13 * HOUR)
    mail.outbox.clear()
    with commit():
        client.post(g.api(1) + "nudge", json.dumps({}), content_type="application/json")
    [nudge] = [cast(EmailMultiAlternatives, m) for m in mail.outbox
               if m.to == ["p0@example.com"]]
    assert REPLY_TO.fullmatch(nudge.reply_to[0])
    assert "Play by replying to this email" in str(nudge.body)
    assert "1. " in str(nudge.body) and "pass 1" in str(nudge.body)  # the hand, an example
    assert "Reply by email" in str(nudge.alternatives[0][0])
    result = send_reply(commit, nudge.reply_to[0], "pass 1")
    assert result.outcome == "moved" and g.refresh().version == 1


def test_the_answer_to_a_move_tells_the_same_clock_as_a_fresh_read(client: Client,
                                                                   clock: Any) -> None:
    """A move's answer takes the next seat's clock settings from the seats the move read
    (no read again): what it says of the nudge is what a fresh GET says, quiet hours of
    the next seat included."""
    from games import engine

    g = make_game(players=3, seed=1, start=True)
    game = g.refresh()
    state = game.state()
    actor = state.actor
    assert actor is not None
    after = (actor + 1) % 3
    Seat.objects.filter(pk=g.seats[after].pk).update(time_zone="Asia/Tokyo", quiet_from=22,
                                                     quiet_to=7)
    move = next(m for m in engine.legal_moves(state) if m["type"] == "pass")
    answered = client.post(g.api(actor) + "moves",
                           json.dumps({"version": game.version, "move": move}),
                           content_type="application/json").json()
    fresh = client.get(g.api(actor)).json()
    assert answered["clock"] == fresh["clock"]
    assert answered["clock"]["nudge_from"] is not None
