"""No seat token in a log line: gunicorn's access and error logs as gunicorn.conf.py sets
them up, and the Django console log (django.request names the path of every 4xx)."""

from __future__ import annotations

import base64
import datetime
import io
import logging
import runpy
import secrets
import socket
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from gunicorn.config import Config

from saboteur_site.log_redaction import REDACTED, RedactSecretsFilter, redact

ROOT = Path(__file__).resolve().parents[2]


def seat_token() -> str:
    return secrets.token_urlsafe(32)  # the shape of a real seat token: 43 characters


@pytest.fixture
def gunicorn_logger(tmp_path: Path) -> Iterator[Any]:
    """The logger gunicorn builds from the shipped gunicorn.conf.py, writing to files."""
    cfg = Config()
    # What gunicorn does with a config file: every known name in it becomes a setting.
    for name, value in runpy.run_path(str(ROOT / "gunicorn.conf.py")).items():
        if name in cfg.settings:
            cfg.set(name, value)
    cfg.set("accesslog", str(tmp_path / "access.log"))
    cfg.set("errorlog", str(tmp_path / "error.log"))
    logger = cfg.logger_class(cfg)
    yield logger
    for log in (logger.access_log, logger.error_log):
        for handler in list(log.handlers):
            handler.close()
            log.removeHandler(handler)


def access_line(logger: Any, raw_uri: str, referer: str) -> None:
    path, _, query = raw_uri.partition("?")
    environ = {"REQUEST_METHOD": "POST", "RAW_URI": raw_uri, "PATH_INFO": path,
               "QUERY_STRING": query, "SERVER_PROTOCOL": "HTTP/1.1",
               "REMOTE_ADDR": "127.0.0.1", "HTTP_REFERER": referer,
               "HTTP_USER_AGENT": "test",
               # The provider's webhook authenticates with ANYMAIL_WEBHOOK_SECRET.
               "HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b"hook-user:pw").decode()}
    resp = SimpleNamespace(status="409 Conflict", sent=57, headers=[])
    req = SimpleNamespace(headers=[("REFERER", referer)])
    logger.access(resp, req, environ, datetime.timedelta(milliseconds=12))


def test_gunicorn_access_log_redacts_tokens_in_path_query_and_referer(
        gunicorn_logger: Any, tmp_path: Path) -> None:
    token, other, signed = seat_token(), seat_token(), "eyJzIjo0Mn0:1vQx2a:Zm9vYmFy"
    access_line(gunicorn_logger, f"/api/play/{token}/moves?next=%2Fplay%2F{other}",
                f"https://saboteur.example.org/play/{other}/")
    access_line(gunicorn_logger, f"/mail/unsubscribe/{signed}/", "-")
    access_line(gunicorn_logger, "/watch/g7k2/", "-")

    lines = (tmp_path / "access.log").read_text().splitlines()
    assert len(lines) == 3
    text = "\n".join(lines)
    for secret in (token, other, signed, "hook-user"):
        assert secret not in text
    assert f'"POST /api/play/{REDACTED}/moves?next=%2Fplay%2F{REDACTED} HTTP/1.1" 409 57' \
        in lines[0]
    assert f'"https://saboteur.example.org/play/{REDACTED}/"' in lines[0]
    assert f"/mail/unsubscribe/{REDACTED}/" in lines[1]
    # A path without a secret is logged as it came: the log stays useful.
    assert '"POST /watch/g7k2/ HTTP/1.1"' in lines[2]


def test_gunicorn_error_log_redacts_the_uri_and_the_traceback(
        gunicorn_logger: Any, tmp_path: Path) -> None:
    token = seat_token()
    try:
        raise ValueError(f"bad state for /play/{token}/move")
    except ValueError:
        # What gunicorn's worker logs when the application raises.
        gunicorn_logger.exception("Error handling request %s", f"/play/{token}/move")

    text = (tmp_path / "error.log").read_text()
    assert f"Error handling request /play/{REDACTED}/move" in text
    assert "ValueError: bad state for /play/" in text
    assert token not in text


@pytest.fixture
def console_output() -> Iterator[io.StringIO]:
    """What the settings' console handler writes, while the test runs."""
    handlers = [h for h in logging.getLogger().handlers
                if isinstance(h, logging.StreamHandler)
                and any(isinstance(f, RedactSecretsFilter) for f in h.filters)]
    assert handlers, "the LOGGING console handler has no RedactSecretsFilter"
    buffer = io.StringIO()
    previous = [h.setStream(buffer) for h in handlers]
    yield buffer
    for handler, stream in zip(handlers, previous, strict=True):
        handler.setStream(stream)


@pytest.mark.django_db
def test_django_request_log_of_a_4xx_holds_no_token(console_output: io.StringIO) -> None:
    token = seat_token()
    client = Client()
    assert client.get(f"/play/{token}/").status_code == 404
    assert client.post(f"/api/play/{token}/moves", data="{}",
                       content_type="application/json").status_code >= 400

    text = console_output.getvalue()
    assert f"/play/{REDACTED}/" in text  # django.request did log the request
    assert token not in text


def test_redact_keeps_lines_without_secrets() -> None:
    for line in ["GET /static/games/board.css HTTP/1.1", "/watch/g7k2/", "/outbox/",
                 "/admin/games/game/?status=open", "replay/3"]:
        assert redact(line) == line


def test_a_traceback_keeps_the_source_files_of_games_play() -> None:
    """An operator reading a traceback needs its file names; no token holds a dot."""
    line = 'File "/srv/saboteur/games/play/move_emails.py", line 68, in _plan_games'
    assert redact(line) == line
    token = "A" * 43
    assert redact(f"/play/{token}.py") == f"/play/{REDACTED}.py"  # token-shaped all the same
    assert redact("/play/abc-def/") == f"/play/{REDACTED}/"


def test_standby_and_offer_links_are_redacted() -> None:
    from saboteur_site.log_redaction import redact

    line = 'GET /standby/abcDEF123/ 200 "GET /seats/offer/xyz-987/ HTTP/1.1"'
    assert redact(line) == 'GET /standby/<redacted>/ 200 "GET /seats/offer/<redacted>/ HTTP/1.1"'


class RefusingServer:
    """An SMTP server that refuses every recipient, quoting it as real servers do."""

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"


@pytest.mark.django_db
def test_a_refused_recipient_is_no_address_in_the_workers_log() -> None:
    """The SMTP server's refusal quotes the address; the worker's log line about it (its
    handlers carry the filter: saboteur_site.celery) names nobody, as it names no token."""
    from aiosmtpd.controller import Controller
    from django.test import override_settings

    from games.mail.core.notifications import Notification
    from games.mail.services import plan, send
    from saboteur_site.celery import redact_worker_logs
    from tests.support import make_game

    stream = io.StringIO()
    logger = logging.getLogger("games.notifications")
    # As a worker has it, whatever an earlier test's logging setup (a real worker's) left.
    was = (logger.level, logger.disabled)
    logger.setLevel(logging.INFO)
    logger.disabled = False
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    redact_worker_logs(logger=logger)
    with socket.socket() as probe:  # a free port (aiosmtpd's Controller needs one named)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = Controller(RefusingServer(), hostname="127.0.0.1", port=port)
    server.start()
    try:
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
                               EMAIL_HOST="127.0.0.1", EMAIL_PORT=server.port,
                               EMAIL_USE_TLS=False, EMAIL_USE_SSL=False, EMAIL_HOST_USER="",
                               EMAIL_HOST_PASSWORD=""):
            game = make_game(players=3, seed=1, start=True)
            [note_id] = plan.create(plan.after_move(game.game.pk, 0))
            address = Notification.objects.get(pk=note_id).to_email
            assert send.deliver(note_id).status == "failed"
    finally:
        server.stop()
        logger.removeHandler(handler)
        logger.level, logger.disabled = was
    text = stream.getvalue()
    assert "failed for good" in text and "Recipient address rejected" in text
    assert address not in text and address.split("@")[0] not in text
    assert "<address>" in text


@pytest.mark.parametrize("line", [
    "SMTPRecipientsRefused: {'ann@example.org': (550, b'<ann@example.org> unknown')}",
    'to "a\\\\lice"@a.test now', "bob@maıl.test asked", "x@[192.0.2.1] bounced",
    "user=ann+1@Example.ORG,", "mailto:zoe@example.net"])
def test_every_spelling_of_an_address_is_masked(line: str) -> None:
    masked = redact(line)
    assert "@" not in masked.replace("celery@", "") and "<address>" in masked


def test_a_host_name_and_a_reply_address_keep_their_shape() -> None:
    assert redact("celery@worker1 ready.") == "celery@worker1 ready."
    assert redact("mail for play+" + "a" * 32 + "@reply.example.org dropped") == (
        "mail for play+<redacted>@reply.example.org dropped")
