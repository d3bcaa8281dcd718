"""The turn email as the fallback of a push-only player (issue 47, item 4): held for the
chosen window, skipped by a receipt, sent without one; time moves with time-machine."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games import tasks
from games.mail.core.notifications import Notification
from games.push.core.push_rows import PushAlert
from games.push.services.devices import set_choice
from tests.handover.test_takeover import pass_move
from tests.push.standin import StandIn
from tests.push.support import turn_on_alerts
from tests.support import make_game

BOB = "p1@example.com"


def turn_emails_to(address: str) -> list[str]:
    return [str(m.subject) for m in mail.outbox
            if address in m.to and "your turn" in str(m.subject)]


def beat(commit: Any) -> None:
    """The beat's sweeps of emails and pushes, and the worker after them."""
    with commit():
        tasks.requeue_unsent()
        tasks.sweep_pushes()


def receipt(client: Client, push_payload: dict[str, Any], event: str) -> int:
    return client.post(push_payload["receipt"], {"event": event},
                       content_type="application/json").status_code


@pytest.mark.django_db
def test_no_receipt_within_the_window_sends_the_turn_email_once(
        client: Client, commit: Any, clock: Any, standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)
    set_choice(BOB, push_only=True, fallback_minutes=120)
    with commit():
        pass_move(client, g.page(0))
    assert len(standin.received) == 1  # the alert went at once
    assert turn_emails_to(BOB) == []  # the email waits for its receipt
    clock.shift(timedelta(minutes=119))
    beat(commit)
    assert turn_emails_to(BOB) == []
    clock.shift(timedelta(minutes=2))
    beat(commit)
    assert len(turn_emails_to(BOB)) == 1
    beat(commit)
    assert len(turn_emails_to(BOB)) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("event", ["shown", "clicked"])
def test_a_receipt_within_the_window_means_no_turn_email(
        client: Client, commit: Any, clock: Any, standin: StandIn, event: str) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)
    set_choice(BOB, push_only=True, fallback_minutes=60)
    with commit():
        pass_move(client, g.page(0))
    [push] = standin.received
    assert push.payload is not None
    clock.shift(timedelta(minutes=5))
    with commit():
        assert receipt(client, push.payload, event) == 200
    clock.shift(timedelta(hours=3))
    beat(commit)
    assert turn_emails_to(BOB) == []
    note = Notification.objects.get(kind="turn", seat=g.seats[1])
    assert note.status == Notification.Status.SKIPPED
    alert = PushAlert.objects.get()
    assert alert.shown_at is not None
    assert (alert.clicked_at is not None) == (event == "clicked")


@pytest.mark.django_db
def test_alerts_beside_emails_leave_the_turn_email_alone(
        client: Client, commit: Any, standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)  # push only is off by default
    with commit():
        pass_move(client, g.page(0))
    assert len(standin.received) == 1
    assert len(turn_emails_to(BOB)) == 1


@pytest.mark.django_db
def test_a_dead_device_sends_the_held_email_at_once(
        client: Client, commit: Any, standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)
    set_choice(BOB, push_only=True, fallback_minutes=120)
    standin.answer(410)
    with commit():
        pass_move(client, g.page(0))
    assert len(turn_emails_to(BOB)) == 1  # no alert can arrive: no reason to wait


@pytest.mark.django_db
@override_settings(METRICS_TOKEN="s3cret")
def test_receipt_rates_per_kind_and_browser_are_in_the_metrics(
        client: Client, commit: Any, standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)
    with commit():
        pass_move(client, g.page(0))
    [push] = standin.received
    assert push.payload is not None
    receipt(client, push.payload, "shown")
    text = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").content.decode()
    assert 'saboteur_push_receipts{kind="turn",browser="chrome",receipt="sent"} 1' in text
    assert 'saboteur_push_receipts{kind="turn",browser="chrome",receipt="shown"} 1' in text
    assert 'saboteur_push_receipts{kind="turn",browser="chrome",receipt="clicked"} 0' in text
    assert 'saboteur_push_alerts{status="sent"} 1' in text
