"""A push beside the turn email (issue 47, item 3): sent through the stand-in push service,
which checks the VAPID signature and decrypts the body; TTL, Urgency and Topic as the
issue says; dead subscriptions pruned; a busy service retried with backoff."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import tasks
from games.push.core.push_rows import PushAlert, PushDevice
from games.push.services.sending import headers_for
from games.seats.core.seat import Seat
from tests.handover.test_takeover import pass_move
from tests.push.standin import StandIn
from tests.push.support import turn_on_alerts
from tests.support import make_game

BOB = "p1@example.com"


def sweep(commit: Any) -> None:
    """The beat's push sweep, and the worker sending what it queued."""
    with commit():
        tasks.sweep_pushes()


@pytest.mark.django_db
def test_a_turn_pushes_an_encrypted_alert_with_ttl_urgency_and_topic(
        client: Client, commit: Any, clock: Any, standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)
    with commit():
        pass_move(client, g.page(0))  # Bob's turn
    [push] = standin.received
    assert push.problem == ""  # a valid VAPID JWT, and it decrypts with the device's keys
    assert push.claims["sub"] == "https://saboteur.example.org"
    game = g.refresh()
    assert game.deadline_at is not None
    # The seconds left to the deadline, counted when it was sent (the clock stands still).
    assert push.ttl == str(int((game.deadline_at - timezone.now()).total_seconds()))
    assert int(push.ttl) > 3600
    assert push.urgency == "high"  # a turn
    assert push.topic == "g" + game.public_id.replace("_", "-")
    assert push.encoding == "aes128gcm"
    assert push.payload is not None
    assert push.payload["title"] == "Test game"
    assert push.payload["body"] == "Your turn."
    assert push.payload["url"].startswith("/me/") and game.public_id in push.payload["url"]
    # Nothing of the seat but its game's name: no seat token, no card, no role.
    seat = Seat.objects.get(pk=g.seats[1].pk)
    for secret in (g.tokens[1], *seat.game.state().hands[1], "saboteur", "miner"):
        assert secret not in str(push.payload).lower().replace("saboteur.example", "")
    assert b"Your turn" not in push.body and b"Test game" not in push.body
    alert = PushAlert.objects.get()
    assert alert.status == PushAlert.Status.SENT


@pytest.mark.django_db
def test_the_ttl_is_never_zero_and_urgency_follows_the_deadline(clock: Any) -> None:
    now = timezone.now()
    assert headers_for("turn", None, "abc", now).ttl == 28 * 24 * 3600
    assert headers_for("turn", now - timedelta(seconds=5), "abc", now).ttl == 1
    assert headers_for("deadline", now + timedelta(hours=30), "abc", now).urgency == "normal"
    assert headers_for("deadline", now + timedelta(hours=23), "abc", now).urgency == "high"
    assert headers_for("turn", now + timedelta(hours=30), "abc", now).urgency == "high"
    assert headers_for("deadline", now + timedelta(hours=3), "abc", now).ttl == 3 * 3600


@pytest.mark.django_db
@pytest.mark.parametrize("status", [404, 410])
def test_a_dead_subscription_is_pruned(client: Client, commit: Any, standin: StandIn,
                                       status: int) -> None:
    g = make_game(players=3, seed=5)
    device, _ = turn_on_alerts(client, BOB, standin)
    standin.answer(status)
    with commit():
        pass_move(client, g.page(0))
    assert len(standin.received) == 1
    assert not PushDevice.objects.filter(pk=device.pk).exists()
    alert = PushAlert.objects.get()
    assert (alert.status, alert.last_error) == (PushAlert.Status.GONE, f"HTTP {status}")


@pytest.mark.django_db
def test_a_busy_push_service_is_tried_again_after_its_retry_after(
        client: Client, commit: Any, clock: Any, standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    device, _ = turn_on_alerts(client, BOB, standin)
    standin.answer(429, retry_after=120)
    with commit():
        pass_move(client, g.page(0))
    alert = PushAlert.objects.get()
    assert alert.status == PushAlert.Status.RETRYING
    assert alert.retry_at is not None and alert.claimed_at is not None
    assert (alert.retry_at - alert.claimed_at).total_seconds() == 120  # Retry-After wins
    clock.shift(timedelta(seconds=60))
    sweep(commit)
    assert len(standin.received) == 1  # not before its time
    clock.shift(timedelta(seconds=61))
    sweep(commit)
    assert len(standin.received) == 2
    alert.refresh_from_db()
    assert alert.status == PushAlert.Status.SENT
    assert PushDevice.objects.filter(pk=device.pk).exists()


@pytest.mark.django_db
def test_a_server_error_backs_off_doubling(client: Client, commit: Any, clock: Any,
                                           standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)
    standin.answer(503, 502)
    with commit():
        pass_move(client, g.page(0))
    waits = []
    for _ in range(2):
        alert = PushAlert.objects.get()
        assert alert.status == PushAlert.Status.RETRYING
        assert alert.retry_at is not None and alert.claimed_at is not None
        waits.append((alert.retry_at - alert.claimed_at).total_seconds())
        clock.move_to(alert.retry_at + timedelta(seconds=1))
        sweep(commit)
    assert waits == [30, 60]
    assert PushAlert.objects.get().status == PushAlert.Status.SENT
    assert len(standin.received) == 3


@pytest.mark.django_db
def test_quiet_hours_hold_the_push_like_the_email(client: Client, commit: Any, clock: Any,
                                                  standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)
    assert timezone.now().hour == 9  # the clock stands at 09:00 UTC
    Seat.objects.filter(pk=g.seats[1].pk).update(quiet_from=9, quiet_to=11, time_zone="UTC")
    with commit():
        pass_move(client, g.page(0))
    assert standin.received == []
    clock.shift(timedelta(hours=1, minutes=50))
    sweep(commit)
    assert standin.received == []
    clock.shift(timedelta(minutes=11))
    sweep(commit)
    assert len(standin.received) == 1


@pytest.mark.django_db
def test_a_device_gets_only_the_kinds_it_chose(client: Client, commit: Any,
                                               standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin, kinds=["deadline"])
    with commit():
        pass_move(client, g.page(0))
    assert standin.received == []
    assert not PushAlert.objects.exists()


@pytest.mark.django_db
def test_a_turn_seen_on_the_open_page_waits_like_its_email(client: Client, commit: Any,
                                                           clock: Any,
                                                           standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)
    client.get(g.page(1))  # Bob's page is open
    with commit():
        pass_move(client, g.page(0))
    client.get(f"/api{g.page(1)}version")  # and shows him his turn
    clock.shift(timedelta(minutes=3))
    sweep(commit)
    assert standin.received == []
    with commit():
        pass_move(client, g.page(1))  # he plays it on the page
    clock.shift(timedelta(hours=2))
    sweep(commit)
    assert standin.received == []
    assert PushAlert.objects.get(notification__seat=g.seats[1]).status == "skipped"


@pytest.mark.django_db
def test_table_talk_alerts_the_other_players_at_most_once_an_hour_a_game(
        client: Client, commit: Any, clock: Any, standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin, kinds=["talk"])
    turn_on_alerts(client, "p0@example.com", standin, kinds=["talk"])  # the writer's own

    def say(text: str) -> None:
        with commit():
            answer = client.post(g.page(0) + "say", {"text": text})
            assert answer.status_code == 302, answer.content[:500]

    say("Hello table")
    say("Anyone there?")
    bodies = [(p.path, p.payload and p.payload["body"]) for p in standin.received]
    assert len(bodies) == 1 and bodies[0][1] == "New table talk."  # Bob's, once
    assert b"Hello" not in standin.received[0].body
    clock.shift(timedelta(minutes=61))
    say("Back again")
    assert len(standin.received) == 2
