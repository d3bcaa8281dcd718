"""/healthz (each failure mode), /metrics (content, token), and the Sentry scrubbing."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock
from wsgiref.util import setup_testing_defaults

import pytest
import sentry_sdk
import time_machine
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import OperationalError, close_old_connections
from django.test import Client, override_settings
from django.utils import timezone
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from games.game.core.follow_up_rows import FollowUp
from games.kit.sweep_marks import SweepMark
from games.mail.core.notifications import Notification
from games.mail.services.send import stuck_after
from games.tasks import follow_up_moves
from saboteur_site import sentry
from saboteur_site.sentry import before_breadcrumb, before_send, before_send_transaction
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


def test_a_turn_email_held_for_a_player_looking_at_the_turn_is_no_failure(
        client: Client, game: GameWithLinks) -> None:
    """A turn email waits up to an hour while its player looks at the turn on the open
    page (games.mail.core.seen_turns): it counts as waiting only from when it is due."""
    sweeps_ran(timedelta(seconds=10))
    now = timezone.now()
    Notification.objects.create(key="k", kind="turn", to_email="a@x.org",
                                created_at=now - timedelta(minutes=50),
                                not_before=now + timedelta(minutes=10))
    answer = client.get("/healthz")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["checks"]["mail"]["oldest_unsent_seconds"] is None
    Notification.objects.update(not_before=now - timedelta(hours=2))  # due long ago
    assert client.get("/healthz").status_code == 503


def test_healthz_fails_when_a_dead_workers_claim_outlives_any_send(
        client: Client, game: GameWithLinks) -> None:
    """A row left in `sending` by a killed worker is neither pending nor retrying: until a
    sweep recovers it, only its claim's age tells. A live send's claim is no failure."""
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        Notification.objects.create(key="k", kind="turn", to_email="a@x.org",
                                    status=Notification.Status.SENDING,
                                    claimed_at=timezone.now())
        sweeps_ran(timedelta(seconds=10))
        answer = client.get("/healthz")
        assert answer.status_code == 200
        assert answer.json()["checks"]["mail"]["stuck_sending"] == 0
        traveller.shift(stuck_after() - timedelta(seconds=1))  # a send may still be running
        sweeps_ran(timedelta(seconds=10))
        assert client.get("/healthz").status_code == 200
        traveller.shift(timedelta(seconds=2))  # older than EMAIL_TIMEOUT plus the margin
        sweeps_ran(timedelta(seconds=10))
        answer = client.get("/healthz")
        assert answer.status_code == 503
        assert answer.json()["checks"]["mail"] == {"ok": False, "oldest_unsent_seconds": None,
                                                   "stuck_sending": 1}
        with override_settings(METRICS_TOKEN="s3cret"):
            text = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").content.decode()
        assert "saboteur_notifications_stuck_sending 1" in text
        assert 'saboteur_notifications{status="sending"} 1' in text
        Notification.objects.update(status=Notification.Status.SENT)  # a sweep resent it
        assert client.get("/healthz").status_code == 200


def test_healthz_fails_when_moves_wait_too_long_for_their_emails(
        client: Client, game: GameWithLinks) -> None:
    """A move's emails are planned from its outbox row by the beat's `follow_up_moves`
    every few seconds; rows that grow old mean those runs stopped (no beat, no worker)."""
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        FollowUp.objects.all().delete()
        FollowUp.objects.create(game=game.game, version=0)
        sweeps_ran(timedelta(seconds=10))
        answer = client.get("/healthz")
        assert answer.status_code == 200
        assert answer.json()["checks"]["follow_ups"] == {"ok": True, "waiting": 1,
                                                         "oldest_seconds": 0}
        traveller.shift(timedelta(seconds=301))
        sweeps_ran(timedelta(seconds=10))
        answer = client.get("/healthz")
        assert answer.status_code == 503
        assert answer.json()["checks"]["follow_ups"] == {"ok": False, "waiting": 1,
                                                         "oldest_seconds": 301}
        with override_settings(METRICS_TOKEN="s3cret"):
            text = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").content.decode()
        assert "saboteur_follow_ups_waiting 1" in text
        assert "saboteur_follow_up_oldest_seconds 301" in text
        follow_up_moves()
        assert client.get("/healthz").status_code == 200


def test_healthz_fails_when_the_database_does_not_answer(client: Client) -> None:
    with mock.patch("games.site.health.SweepMark.objects.exists",
                    side_effect=OperationalError("down")):
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
    assert "saboteur_notifications_stuck_sending 0" in text


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


def test_sentry_transactions_carry_no_seat_token(game: GameWithLinks) -> None:
    token = game.tokens[0]
    event: dict[str, Any] = {
        "type": "transaction",
        "transaction": f"/play/{token}/",
        "transaction_info": {"source": "url"},
        "request": {"url": f"https://x.org/api/play/{token}/moves",
                    "query_string": f"next=/play/{token}/&t={token}",
                    "headers": {"Referer": f"https://x.org/play/{token}/",
                                "X-Original-Uri": f"/api/play/{token}/moves"}},
        "contexts": {"trace": {"op": "http.server", "description": f"POST /play/{token}/"}},
        "spans": [
            {"op": "http.client", "description": f"GET https://x.org/api/play/{token}/",
             "data": {"url": f"https://x.org/api/play/{token}/", "http.query": f"s={token}"}},
            {"op": "db", "description": "SELECT 1 FROM seat WHERE link_hash = %s",
             "data": {"db.params": [token]}},
        ],
    }
    scrubbed = before_send_transaction(event, {})
    assert token not in repr(scrubbed)
    assert scrubbed["transaction"] == "/play/<redacted>/"
    assert scrubbed["request"]["url"] == "https://x.org/api/play/<redacted>/moves"
    assert scrubbed["spans"][0]["description"] == "GET https://x.org/api/play/<redacted>/"
    assert scrubbed["spans"][1]["description"] == event["spans"][1]["description"]


def test_sentry_reports_no_cookie_client_address_or_user(
        game: GameWithLinks, reported: RecordingTransport) -> None:
    """What a report of a failing page holds of the person who met it: nothing (no
    cookie, no session, no client address, no user), whatever the request carried.
    (The values are made here: a report quotes the source lines around the failure.)"""
    session, csrf = secrets.token_hex(8), secrets.token_hex(8)
    client, forwarded = ".".join(["203", "0", "113", "9"]), ".".join(["198", "51", "100", "7"])

    def broken(request: Any, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("cannot draw")

    with mock.patch("games.play.doors.seat_page._render", side_effect=broken):
        status = wsgi_get(f"/play/{game.tokens[0]}/", HTTP_COOKIE=f"sessionid={session}; "
                          f"csrftoken={csrf}", REMOTE_ADDR=client,
                          HTTP_X_FORWARDED_FOR=forwarded)
    assert status == 500
    sentry_sdk.flush()
    [error] = [e for e in reported.items("event") if e.get("exception")]
    request = error["request"]
    assert not request.get("cookies") and request["headers"].get("Cookie") == "[Filtered]"
    assert not request["headers"].get("X-Forwarded-For") and "REMOTE_ADDR" not in request["env"]
    assert "user" not in error
    sent = reported.sent()
    for personal in (session, csrf, client, forwarded):
        assert personal not in sent


class RecordingTransport(Transport):
    """Keeps every envelope the SDK would send, serialized; sends nothing anywhere."""

    def __init__(self) -> None:
        super().__init__()
        self.envelopes: list[Envelope] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        self.envelopes.append(envelope)

    def sent(self) -> str:
        return "\n".join(envelope.serialize().decode() for envelope in self.envelopes)

    def items(self, kind: str) -> list[dict[str, Any]]:
        return [item.payload.json for envelope in self.envelopes for item in envelope.items
                if item.type == kind and item.payload.json is not None]


@pytest.fixture
def reported() -> Iterator[RecordingTransport]:
    """The project's Sentry init, as settings call it with SENTRY_DSN set, with a transport
    that records; afterwards the process has no Sentry client again."""
    transport = RecordingTransport()
    sentry.init("https://public@127.0.0.1/1", "test", 1.0, transport=transport)
    try:
        yield transport
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.get_global_scope().set_client(None)
        sentry_sdk.get_isolation_scope().clear()
        sentry_sdk.get_current_scope().clear()
    assert not sentry_sdk.get_client().is_active()


def wsgi_get(path: str, query: str = "", **headers: str) -> int:
    """A GET through Django's real WSGI handler, which Sentry's Django integration wraps in
    its WSGI middleware (the test Client skips it: no transaction, no request url). The
    handler's connection closing is held off, as the test Client does, so the test's
    transaction survives."""
    environ: dict[str, Any] = {"REQUEST_METHOD": "GET", "PATH_INFO": path,
                               "QUERY_STRING": query, "HTTP_HOST": "testserver", **headers}
    setup_testing_defaults(environ)
    status: list[str] = []

    def start_response(code: str, headers: Any, exc_info: Any = None) -> Any:
        status.append(code)
        return lambda data: None

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        body = WSGIHandler()(environ, start_response)
        b"".join(body)
        body.close()  # type: ignore[attr-defined]
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return int(status[0].split()[0])


def test_sentry_as_initialized_reports_seat_requests_scrubbed(
        game: GameWithLinks, reported: RecordingTransport) -> None:
    token = game.tokens[0]

    def broken(request: Any, *args: Any, **kwargs: Any) -> Any:
        logging.getLogger("games").warning("drawing %s", request.get_full_path())
        sentry_sdk.capture_message(f"odd request to {request.build_absolute_uri()}")
        raise RuntimeError(f"cannot draw {request.get_full_path()}")

    with mock.patch("games.play.doors.seat_page._render", side_effect=broken):
        status = wsgi_get(f"/play/{token}/", f"next=/api/play/{token}/moves",
                          HTTP_REFERER=f"http://testserver/api/play/{token}/moves")
    assert status == 500
    assert wsgi_get(f"/api/play/{token}/moves", f"t={token}") == 405  # a GET: no move
    sentry_sdk.flush()
    events = reported.items("event")
    messages = [e for e in events if e.get("message", "").startswith("odd request")]
    errors = [e for e in events if e.get("exception")]
    assert len(messages) == 1 and len(errors) == 1
    assert messages[0]["message"] == "odd request to http://testserver/play/<redacted>/" \
        "?next=/api/play/<redacted>/moves"
    assert errors[0]["exception"]["values"][-1]["value"] == (
        "cannot draw /play/<redacted>/?next=/api/play/<redacted>/moves")
    request = errors[0]["request"]
    assert request["url"] == "http://testserver/play/<redacted>/"
    assert request["query_string"] == "next=/api/play/<redacted>/moves"
    assert request["headers"]["Referer"] == "http://testserver/api/play/<redacted>/moves"
    assert any("drawing /play/<redacted>/" in (crumb.get("message") or "")
               for crumb in errors[0]["breadcrumbs"]["values"])
    transactions = reported.items("transaction")
    assert sorted(t["request"]["url"] for t in transactions) == [
        "http://testserver/api/play/<redacted>/moves", "http://testserver/play/<redacted>/"]
    assert token not in reported.sent()
