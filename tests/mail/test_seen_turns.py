"""No "your turn" email for a turn the player has seen on their open page within the last
few minutes, unless it is still unplayed an hour later (issue 39, item 5); a setting, on
by default. Time moves with time-machine."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import tasks
from games.mail.core import seen_turns
from games.mail.core.notifications import Notification
from games.seats.core.seat import Seat
from tests.handover.test_takeover import pass_move
from tests.support import make_game


def turn_emails_to(address: str) -> list[str]:
    return [str(m.subject) for m in mail.outbox
            if address in m.to and "your turn" in str(m.subject)]


def sweep_unsent(commit: Any) -> None:
    """The beat's requeue_unsent, and the worker sending what it queued."""
    with commit():
        tasks.requeue_unsent()


@pytest.mark.django_db
def test_a_turn_seen_on_the_open_page_is_emailed_only_if_unplayed_an_hour_later(
        client: Client, commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    client.get(g.page(1))  # Bob's page is open (Ann's turn)
    clock.shift(timedelta(seconds=20))
    with commit():
        pass_move(client, g.page(0))  # Bob's turn
    assert turn_emails_to("p1@example.com") == []  # his page is open: it waits a little
    clock.shift(timedelta(seconds=5))
    poll = client.get(f"/api{g.page(1)}version").json()  # the page sees the new turn
    assert poll["version"] == 1
    started = g.refresh().turn_started_at
    assert started is not None
    for minutes in (3, 30, 59):
        clock.move_to(started + timedelta(minutes=minutes))
        sweep_unsent(commit)
        assert turn_emails_to("p1@example.com") == []
    clock.move_to(started + timedelta(hours=1, minutes=2))
    sweep_unsent(commit)
    assert len(turn_emails_to("p1@example.com")) == 1  # still unplayed an hour later
    sweep_unsent(commit)
    assert len(turn_emails_to("p1@example.com")) == 1  # once


@pytest.mark.django_db
def test_a_seen_turn_played_within_the_hour_gets_no_email(client: Client, commit: Any,
                                                         clock: Any) -> None:
    g = make_game(players=3, seed=5)
    client.get(g.page(1))
    with commit():
        pass_move(client, g.page(0))
    client.get(g.page(1) + "live")  # the open page's live parts show the turn
    clock.shift(timedelta(minutes=3))
    sweep_unsent(commit)
    with commit():
        pass_move(client, g.page(1))  # Bob plays on the page
    clock.shift(timedelta(hours=2))
    sweep_unsent(commit)
    assert turn_emails_to("p1@example.com") == []
    note = Notification.objects.get(kind="turn", seat=g.seats[1])
    assert note.status == Notification.Status.SKIPPED


@pytest.mark.django_db
def test_a_page_closed_before_the_turn_showed_lets_the_email_go(client: Client, commit: Any,
                                                               clock: Any) -> None:
    g = make_game(players=3, seed=5)
    client.get(g.page(1))
    with commit():
        pass_move(client, g.page(0))
    assert turn_emails_to("p1@example.com") == []
    clock.shift(timedelta(minutes=3))  # the page never showed the turn
    sweep_unsent(commit)
    assert len(turn_emails_to("p1@example.com")) == 1


@pytest.mark.django_db
def test_the_setting_off_or_a_closed_page_sends_at_once(client: Client, commit: Any,
                                                        clock: Any) -> None:
    g = make_game(players=3, seed=5)
    client.get(g.page(1))
    Seat.objects.filter(pk=g.seats[1].pk).update(skip_seen_turns=False)
    with commit():
        pass_move(client, g.page(0))
    assert len(turn_emails_to("p1@example.com")) == 1
    # Cy's page was open long ago: closed since, so the email goes at once.
    client.get(g.page(2))
    clock.shift(timedelta(minutes=10))
    with commit():
        pass_move(client, g.page(1))
    assert len(turn_emails_to("p2@example.com")) == 1


@pytest.mark.django_db
def test_noting_the_open_page_writes_at_most_once_a_minute(client: Client,
                                                           clock: Any) -> None:
    g = make_game(players=3, seed=5)
    client.get(f"/api{g.page(1)}version")
    first = Seat.objects.get(pk=g.seats[1].pk).seen_at
    assert first is not None
    clock.shift(timedelta(seconds=30))
    client.get(f"/api{g.page(1)}version")
    assert Seat.objects.get(pk=g.seats[1].pk).seen_at == first  # nothing written
    clock.shift(timedelta(seconds=31))
    client.get(f"/api{g.page(1)}version")
    later = Seat.objects.get(pk=g.seats[1].pk).seen_at
    assert later is not None and later > first
    assert timedelta(minutes=1) == seen_turns.NOTE_EVERY
