"""Secrets stay with their seat: an invitation link never opens a started
game's seat, every answer that carries a seat secret (redirects too) is no-store, the
runserver and Celery logs redact tokens, the deploy checks name the settings that make
rate limits per client, and the dispute and new-link limits and an unbuildable email's
moderator alert work as a player or moderator would see them."""

from __future__ import annotations

import io
import logging
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.core.checks import run_checks
from django.core.mail import BadHeaderError, EmailMessage
from django.test import Client, override_settings

from games.mail.core.notifications import Notification
from games.seats.core.links import link_for
from games.setup.services import game_setup
from saboteur_site.celery import redact_worker_logs
from saboteur_site.log_redaction import REDACTED
from tests.support import GameWithLinks, own_link_emailed_to, token_of


def started_with_invitations() -> game_setup.CreatedGame:
    players = [game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("ann", "bo", "cy")]
    return game_setup.create_game(name="Started", players=players, seed=8, start=True)


@pytest.mark.django_db
def test_an_invitation_link_never_opens_a_started_seat(client: Client, commit: Any) -> None:
    with commit():
        created = started_with_invitations()
    seat, invitation = created.seats[0]  # seat 0 moves first
    path = "/play/" + token_of(invitation) + "/"
    page = client.get(path)
    text = page.content.decode()
    assert page.status_code == 200 and "This is the invitation for ann, seat 1." in text
    assert "Your hand" not in text
    version = created.game.version
    refused = client.post(path + "move", {"version": version, "move": '{"type": "pass"}'})
    assert refused.status_code == 302 and refused["Location"] == path
    assert refused["Cache-Control"].startswith("no-store")
    assert "Accept the invitation first" in client.get(path).content.decode()
    api = client.get("/api/play/" + token_of(invitation) + "/")
    assert api.status_code == 403 and api.json()["error"]["code"] == "invitation_not_accepted"
    assert "view" not in api.json()
    created.game.refresh_from_db()
    assert created.game.version == version  # nothing moved
    # The player's own link plays as before.
    own = "/api/play/" + token_of(link_for(seat)) + "/"
    assert client.get(own).status_code == 200


@pytest.mark.django_db
def test_a_move_through_an_invitation_link_is_a_403_as_docs_api_md_says(
        client: Client, commit: Any) -> None:
    """An invitation link is not the seat: like every other API call through it, a move
    is refused 403 invitation_not_accepted with the address to accept it at (no more
    than the link's own GET tells); a dead or unknown link stays a 404."""
    with commit():
        created = started_with_invitations()
    _seat, invitation = created.seats[0]  # seat 0 moves first
    token = token_of(invitation)
    body = '{"version": 0, "move": {"type": "pass", "card": null}}'
    refused = client.post(f"/api/play/{token}/moves", body, content_type="application/json")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "invitation_not_accepted"
    assert refused.json()["error"]["accept"] == f"/api/play/{token}/accept"
    assert "view" not in refused.json()
    created.game.refresh_from_db()
    assert created.game.version == 0
    with commit():
        assert client.post(f"/api/play/{token}/accept").status_code == 200
    dead = client.post(f"/api/play/{token}/moves", body, content_type="application/json")
    assert dead.status_code == 404 and dead.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_every_redirect_to_a_seat_page_is_no_store(game: GameWithLinks, client: Client) -> None:
    page = game.page(1)
    for address, data in [("say", {"text": "hello"}), ("emails", {"email_mode": "each"}),
                          ("preferences", {"time_zone": "UTC", "language": "en"})]:
        answer = client.post(page + address, data)
        assert answer.status_code == 302 and answer["Location"].startswith(page)
        assert answer["Cache-Control"] == "no-store, private", address
    # The slash Django adds by redirecting carries the secret too.
    bare = client.get(page.rstrip("/"))
    assert bare.status_code in (301, 302) and bare["Cache-Control"] == "no-store, private"


def test_runserver_access_log_is_redacted() -> None:
    token = "A" * 43
    stream = io.StringIO()
    logger = logging.getLogger("django.server")
    # The console handler settings.LOGGING gives it (pytest adds capture handlers).
    [handler] = [h for h in logger.handlers if type(h) is logging.StreamHandler]
    old_stream = handler.setStream(stream)  # type: ignore[attr-defined]
    try:
        logger.info('"GET /play/%s/ HTTP/1.1" 200 5120', token)
    finally:
        handler.setStream(old_stream)  # type: ignore[attr-defined]
    assert token not in stream.getvalue() and REDACTED in stream.getvalue()


def test_celery_worker_logs_are_redacted() -> None:
    token = "b" * 43
    stream = io.StringIO()
    logger = logging.Logger("celery-like")
    logger.addHandler(logging.StreamHandler(stream))
    redact_worker_logs(logger=logger)
    redact_worker_logs(logger=logger)  # a second setup adds no second filter
    assert len(logger.handlers[0].filters) == 1
    logger.error("task failed for /api/play/%s/moves", token)
    assert token not in stream.getvalue() and REDACTED in stream.getvalue()


def _deploy_warnings() -> set[str]:
    return {m.id for m in run_checks(include_deployment_checks=True) if m.id and
            m.id.startswith("games.")}


def test_deploy_checks_name_per_process_limits_and_a_missing_forwarded_for() -> None:
    locmem = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    redis = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                         "LOCATION": "redis://127.0.0.1:6379/1"}}
    proxy = ("HTTP_X_FORWARDED_PROTO", "https")
    with override_settings(CACHES=locmem, SECURE_PROXY_SSL_HEADER=proxy,
                           USE_X_FORWARDED_FOR=False):
        assert {"games.W001", "games.W002"} <= _deploy_warnings()
    with override_settings(CACHES=redis, SECURE_PROXY_SSL_HEADER=proxy,
                           USE_X_FORWARDED_FOR=True):
        assert not {"games.W001", "games.W002"} & _deploy_warnings()


@pytest.mark.django_db
@override_settings(RATE_LIMITS={"dispute_seat": [2, 86400]})
def test_disputes_are_rate_limited_per_seat(game: GameWithLinks, client: Client) -> None:
    page = game.page(1)
    for _ in range(2):
        sent = client.post(page + "dispute", {"text": "Odd move", "move_number": ""})
        assert sent.status_code == 302
    third = client.post(page + "dispute", {"text": "Odd move", "move_number": ""})
    assert third.status_code == 429 and int(third["Retry-After"]) > 0
    assert game.game.disputes.count() == 2


@pytest.mark.django_db
@override_settings(RATE_LIMITS={"rotate_seat": [1, 3600]})
def test_new_links_are_rate_limited_per_seat(game: GameWithLinks, client: Client) -> None:
    first = client.post(game.page(1) + "rotate")
    assert first.status_code == 302
    new_page = first["Location"]
    second = client.post(new_page + "rotate")
    assert second.status_code == 429 and int(second["Retry-After"]) > 0
    assert client.get(new_page).status_code == 200  # the link from the first click works


@pytest.mark.django_db
@override_settings(MODERATOR_EMAILS=["mod@x.org"])
def test_an_email_that_cannot_be_sent_as_built_fails_at_once_and_alerts_moderators(
        commit: Any) -> None:
    real_send = EmailMessage.send

    def refuse_invitations(message: Any, *args: Any, **kwargs: Any) -> int:
        if message.to != ["mod@x.org"]:
            raise BadHeaderError("Header values can't contain newlines")
        return int(real_send(message, *args, **kwargs))

    with mock.patch("django.core.mail.EmailMessage.send", refuse_invitations), commit():
        created = started_with_invitations()
    to_players = Notification.objects.filter(game=created.game).exclude(
        kind=Notification.Kind.MODERATOR_ALERT)
    assert to_players.filter(kind=Notification.Kind.INVITATION).count() == 3
    assert set(to_players.values_list("status", flat=True)) == {"failed"}
    assert all(n.attempts == 1 for n in to_players)  # permanent: never retried
    alerts = Notification.objects.filter(kind=Notification.Kind.MODERATOR_ALERT,
                                         to_email="mod@x.org")
    # One alert per email that can never go out, each delivered.
    assert alerts.count() == to_players.count()
    assert set(alerts.values_list("status", flat=True)) == {"sent"}


@pytest.mark.django_db
def test_a_script_accepts_an_invitation_through_the_api_and_plays_with_its_emailed_link(
        commit: Any) -> None:
    client = Client(enforce_csrf_checks=True)  # a program: no CSRF token
    with commit():
        created = started_with_invitations()
    seat, invitation = created.seats[0]
    refused = client.get("/api/play/" + token_of(invitation) + "/").json()["error"]
    accept = refused["accept"]
    assert accept == "/api/play/" + token_of(invitation) + "/accept"
    mail.outbox.clear()
    with commit():
        answer = client.post(accept)
    body = answer.json()
    assert answer.status_code == 200 and answer["Cache-Control"].startswith("no-store")
    assert (body["seat"], body["accepted"], body["game_status"]) == (0, True, "active")
    # The own link is never in the answer: it went to the seat's address, and only there.
    assert body["link_sent"] is True and token_of(link_for(seat)) not in answer.content.decode()
    assert "link" not in body and "api" not in body
    [letter] = mail.outbox
    assert letter.to == ["ann@x.org"]
    api = "/api" + own_link_emailed_to("ann@x.org")
    # The invitation link is dead; the own link from the email plays.
    assert client.post(accept).status_code == 404
    state = client.get(api).json()
    move = state["legal_moves"][0]
    made = client.post(api + "moves", data={"version": state["version"], "move": move},
                       content_type="application/json")
    assert made.status_code == 200 and made.json()["version"] == state["version"] + 1
    # Through the own link, accept records nothing new and hands out no link.
    again = client.post(api + "accept").json()
    assert again["accepted"] is True and "link" not in again and "link_sent" not in again
    assert client.get(api + "accept").status_code == 405
