"""/healthz (each failure mode), /metrics (content, token), and the Sentry scrubbing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client, override_settings
from django.utils import timezone

from games.models import Notification, SweepMark
from saboteur_site.sentry import before_breadcrumb, before_send
from tests.support import GameWithLinks

pytestmark = pytest.mark.django_db


def sweeps_ran(ago: timedelta) -> None:
    for name in ("deadlines", "reminders"):
        SweepMark.objects.update_or_create(name=name,
                                           defaults={"reached": timezone.now() - ago})


def test_healthz_is_200_when_all_is_well(client: Client, game: GameWithLinks) -> None:
    sweeps_ran(timedelta(seconds=30))
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.json()["status"] == "ok"
    assert answer["Cache-Control"] == "no-store"
    assert client.head("/healthz").status_code == 200


def test_healthz_fails_when_the_beat_stopped(client: Client, game: GameWithLinks) -> None:
    sweeps_ran(timedelta(hours=1))
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["checks"]["sweeps"] == {"ok": False, "age_seconds": 3600}
    SweepMark.objects.all().delete()  # never ran, with an active game waiting on its clock
    assert client.get("/healthz").status_code == 503


def test_healthz_fails_when_an_email_waits_too_long(client: Client,
                                                    game: GameWithLinks) -> None:
    sweeps_ran(timedelta(seconds=10))
    Notification.objects.create(key="k", kind="turn", to_email="a@x.org",
                                created_at=timezone.now() - timedelta(hours=2))
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["checks"]["mail"]["ok"] is False


def test_healthz_fails_when_the_database_does_not_answer(client: Client) -> None:
    with mock.patch("games.play.health.connection.cursor", side_effect=OperationalError("down")):
        answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json() == {"status": "fail", "checks": {"database": {"ok": False}}}


def test_metrics_need_the_token_and_speak_prometheus(client: Client,
                                                     game: GameWithLinks) -> None:
    assert client.get("/metrics").status_code == 404  # off without METRICS_TOKEN
    with override_settings(METRICS_TOKEN="s3cret"):
        assert client.get("/metrics").status_code == 403
        assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer nope").status_code == 403
        answer = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain; version=0.0.4")
    text = answer.content.decode()
    assert 'saboteur_games{status="active"} 1' in text
    assert "# TYPE saboteur_moves_total counter" in text
    assert "saboteur_notification_oldest_unsent_seconds" in text
    assert "saboteur_notification_bounces_total 0" in text


def test_sentry_events_and_breadcrumbs_carry_no_seat_token(game: GameWithLinks) -> None:
    token = game.tokens[0]
    event: dict[str, Any] = {
        "request": {"url": f"https://x.org/play/{token}/move",
                    "query_string": f"next=/play/{token}/",
                    "headers": {"Referer": f"https://x.org/api/play/{token}/"},
                    "data": {"note": f"see {token}"}},
        "exception": {"values": [{"type": "Http404", "value": f"no seat {token}"}]},
        "breadcrumbs": {"values": [{"message": f"GET /play/{token}/"}]},
        "extra": {"path": [f"/mail/unsubscribe/{token}/"]},
    }
    scrubbed = before_send(event, {})
    assert token not in repr(scrubbed)
    assert scrubbed["request"]["url"] == "https://x.org/play/<redacted>/move"
    crumb = before_breadcrumb({"category": "httplib", "data": {"url": f"/api/play/{token}/"}}, {})
    assert token not in repr(crumb)
