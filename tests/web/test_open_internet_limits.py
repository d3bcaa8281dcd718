"""The server on the open internet: /new/ is no spam relay, logins cannot be guessed at
leisure, per-seat actions and the API are rate limited (429 with Retry-After)."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from games.game.core.game import Game
from games.kit import limits
from games.mail.core.notifications import Notification
from games.setup.core.host_limits import HostBlock
from games.setup.services import game_setup
from tests.setup_support import HOST, confirm_path, set_up
from tests.support import GameWithLinks, redis_answers

pytestmark = pytest.mark.django_db


def setup_form(host: str = HOST, players: int = 3, name: str = "Spam?") -> dict[str, Any]:
    data: dict[str, Any] = {"name": name, "ruleset": "base", "hours_per_move": 24,
                            "seating": "order", "start": "accepted", "time_zone": "UTC",
                            "language": "en", "host_email": host}
    for i in range(players):
        data[f"player_{i}_name"] = f"Victim {i}"
        data[f"player_{i}_email"] = f"victim{i}@example.net"
    return data


def test_thirty_setups_from_one_client_send_no_invitation_and_hit_the_limit(
        client: Client, commit: Any) -> None:
    answers = []
    for n in range(30):
        with commit():
            answers.append(client.post("/new/", setup_form(host=f"h{n}@example.org")).status_code)
    assert answers.count(302) == 5 and answers.count(429) == 25
    # Nothing reached the victims: only the five hosts were asked to confirm.
    assert not Notification.objects.filter(kind=Notification.Kind.INVITATION).exists()
    assert {m.to[0] for m in mail.outbox} == {f"h{n}@example.org" for n in range(5)}
    # The confirmation email carries none of the host's text.
    assert all("Spam?" not in m.body and "Victim" not in m.body for m in mail.outbox)
    limited = client.post("/new/", setup_form(host="late@example.org"))
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0


def test_invitations_leave_only_once_the_host_confirms_and_only_once(
        client: Client, commit: Any) -> None:
    with commit():
        client.post("/new/", setup_form())
    assert not Notification.objects.filter(kind=Notification.Kind.INVITATION).exists()
    path = confirm_path()
    page = client.get(path).content.decode()  # GET changes nothing (mail scanners open links)
    assert "victim1@example.net" in page
    assert Game.objects.get().host_confirmed_at is None
    with commit():
        first = client.post(path)
    with commit():
        again = client.post(path)  # a reload or a double click
    assert len(set(re.findall(r'href="[^"]*/play/([^"/]+)/"', first.content.decode()))) == 3
    assert "/play/" not in again.content.decode()
    invitations = Notification.objects.filter(kind=Notification.Kind.INVITATION)
    assert sorted(invitations.values_list("to_email", flat=True)) == [
        "victim0@example.net", "victim1@example.net", "victim2@example.net"]


def test_a_host_address_has_a_daily_cap_on_games(commit: Any) -> None:
    """Counted in games its host confirmed (a setup nobody confirmed counts for nothing:
    tests/web/test_unconfirmed_setups.py)."""
    hosts = [Client(REMOTE_ADDR=f"10.0.0.{n}") for n in range(7)]
    answers = []
    for n, host in enumerate(hosts[:6]):
        with commit():
            answers.append(host.post("/new/", setup_form(name=f"G{n}")).status_code)
        if answers[-1] == 302:
            with commit():
                assert host.post(confirm_path()).status_code == 200
    assert answers == [302] * 5 + [400]
    assert "as many games today" in hosts[6].post("/new/", setup_form()).content.decode()


def test_a_recipient_gets_at_most_five_invitations_a_day(client: Client, commit: Any) -> None:
    for n in range(5):
        with commit():
            game_setup.create_game(name=f"Op {n}", players=[
                game_setup.PlayerSpec(name="V", email="victim0@example.net"),
                game_setup.PlayerSpec(name="W", email=f"w{n}@example.net"),
                game_setup.PlayerSpec(name="X", email=f"x{n}@example.net")])
    assert Notification.objects.filter(kind=Notification.Kind.INVITATION,
                                       to_email="victim0@example.net").count() == 5
    capped = client.post("/new/", setup_form(host="other@example.org"))
    assert capped.status_code == 400
    assert "victim0@example.net has been invited as often today" in capped.content.decode()
    assert Game.objects.count() == 5


def test_an_unsubscribed_recipient_is_never_invited_again_by_that_host(
        client: Client, commit: Any) -> None:
    set_up(client, setup_form(), commit)
    HostBlock.objects.all().delete()
    invitation = next(m for m in mail.outbox if m.to == ["victim1@example.net"])
    unsubscribe = next(line for line in invitation.body.splitlines()
                       if "/mail/unsubscribe/" in line).split("http://127.0.0.1:8000")[-1]
    assert client.post(unsubscribe.strip()).status_code == 200
    assert HostBlock.objects.count() == 1
    refused = Client(REMOTE_ADDR="10.9.9.9").post("/new/", setup_form(name="Again"))
    assert refused.status_code == 400
    assert "victim1@example.net does not want invitations from you" in refused.content.decode()
    other_host = Client(REMOTE_ADDR="10.9.9.8").post("/new/", setup_form(host="x@y.org"))
    assert other_host.status_code == 302


@override_settings(SETUP="closed")
def test_setup_can_be_closed(client: Client) -> None:
    assert client.get("/new/").status_code == 403
    assert client.post("/new/", setup_form()).status_code == 403
    assert not Game.objects.exists() and not mail.outbox


def test_admin_login_locks_out_after_repeated_failures(client: Client) -> None:
    User.objects.create_superuser("boss", "boss@x.org", "the-right-password")
    for _attempt in range(40):
        client.post("/admin/login/?next=/admin/", {"username": "boss", "password": "wrong"})
    answer = client.post("/admin/login/?next=/admin/",
                         {"username": "boss", "password": "the-right-password"})
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    assert "_auth_user_id" not in client.session
    # Another client trying the same user name is locked out too.
    other = Client(REMOTE_ADDR="10.1.1.1")
    assert other.post("/admin/login/?next=/admin/", {
        "username": "boss", "password": "the-right-password"}).status_code == 429


def test_admin_login_works_below_the_limit(client: Client) -> None:
    User.objects.create_superuser("boss", "boss@x.org", "the-right-password")
    for _attempt in range(3):
        client.post("/admin/login/?next=/admin/", {"username": "boss", "password": "wrong"})
    answer = client.post("/admin/login/?next=/admin/",
                         {"username": "boss", "password": "the-right-password"})
    assert answer.status_code == 302 and client.session.get("_auth_user_id")


@override_settings(RATE_LIMITS={"api_seat": [5, 60], "talk_seat": [2, 600],
                                "rotate_seat": [1, 3600]})
def test_per_seat_limits_answer_429_with_retry_after(client: Client,
                                                     game: GameWithLinks) -> None:
    answers = [client.get(game.api(1)) for _ in range(6)]
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert answers[-1].json()["error"]["code"] == "too_many_requests"
    assert int(answers[-1]["Retry-After"]) > 0
    assert client.get(game.api(2)).status_code == 200  # another seat has its own count
    talk = [client.post(game.page(0) + "say", {"text": f"hi {n}"}).status_code
            for n in range(3)]
    assert talk == [302, 302, 429]


@override_settings(RATE_LIMITS={"api_seat": [2, 60]})
def test_a_seat_past_its_api_limit_is_refused_before_the_game_is_touched(
        client: Client, game: GameWithLinks, django_assert_num_queries: Any) -> None:
    """A flood on one seat never queues on the game's row lock: the limit is counted per
    link, before any query, and garbage bodies are refused before the lock too."""
    state = client.get(game.api(0)).json()
    client.get(game.api(0))
    move = {"version": state["version"], "move": state["legal_moves"][0]}
    with django_assert_num_queries(0):
        refused = client.post(game.api(0) + "moves", move, content_type="application/json")
    assert refused.status_code == 429 and game.refresh().version == 0
    # A bad body from a seat within its limit: refused without locking the game.
    with CaptureQueriesContext(connection) as queries:
        bad = client.post(game.api(1) + "moves", "{not json", content_type="application/json")
    assert bad.status_code == 400
    assert not any("FOR UPDATE" in q["sql"].upper() for q in queries.captured_queries)


# A database of its own on the machine's Redis, emptied before and after (never leftovers).
REDIS_CACHE_URL = os.environ.get("CACHE_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_a_limit_counts_each_event_once_in_its_window(backend: str, clock: Any) -> None:
    """In the process's memory and in Redis alike (where one round trip makes the slot
    with its expiry and counts): the limit's events pass, the next is refused with the
    seconds left in the window, other keys count apart, a new window starts afresh."""
    if backend == "redis" and not redis_answers(REDIS_CACHE_URL):
        pytest.skip(f"no Redis at {REDIS_CACHE_URL}")
    location = {"memory": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                           "LOCATION": "limits-test"},
                "redis": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": REDIS_CACHE_URL}}[backend]
    with override_settings(CACHES={"default": location}, RATE_LIMITS={"api_seat": [3, 60]}):
        cache.clear()
        try:
            for _ in range(3):
                limits.hit("api_seat", "seat:1")
            with pytest.raises(limits.Limited) as refused:
                limits.hit("api_seat", "seat:1")
            assert 0 < refused.value.retry_after <= 60
            with pytest.raises(limits.Limited):  # refused again while the window lasts
                limits.hit("api_seat", "seat:1")
            limits.hit("api_seat", "seat:2")
            if backend == "redis":
                slot, _ = limits._slot("api_seat", "seat:1", limits.clock())
                key = cache.make_and_validate_key(slot)
                redis = limits.redis_client(REDIS_CACHE_URL)
                assert redis.get(key) == b"5" and 0 < redis.ttl(key) <= 61
            clock.shift(61)  # the next window
            limits.hit("api_seat", "seat:1")
        finally:
            cache.clear()


def test_the_games_go_on_when_the_caches_redis_does_not_answer(
        client: Client, game: GameWithLinks, caplog: pytest.LogCaptureFixture) -> None:
    """A cache that is down limits nothing and counts nothing, and says so in the log; the
    seat's API still answers and a move is still made (never a 500)."""
    down = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                        "LOCATION": "redis://127.0.0.1:9/0"}}  # the discard port: refused
    with override_settings(CACHES=down, RATE_LIMITS={"api_seat": [1, 60]}):
        limits.redis_client.cache_clear()
        state = [client.get(game.api(0)) for _ in range(3)][-1]
        assert state.status_code == 200  # over a limit of 1, yet nothing counted it
        moved = client.post(game.api(0) + "moves", {"version": state.json()["version"],
                                                    "move": state.json()["legal_moves"][0]},
                            content_type="application/json")
        assert moved.status_code == 200 and game.refresh().version == 1
    limits.redis_client.cache_clear()
    assert "the cache does not answer" in caplog.text
