"""The admin login lockout counts what authentication counts: a user name is one however
it is spelled for the login form (`ｍod`, full-width, is `mod`), each client address has
its own limit, and after the limit even the right password is refused (429, Retry-After)
until the window has passed."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"
RIGHT = "the-right-password"


@pytest.fixture
def mod(db: None) -> User:
    return User.objects.create_superuser("mod", "mod@example.org", RIGHT)


def guess(name: str, address: str, password: str = "wrong") -> Any:
    return Client(REMOTE_ADDR=address).post(LOGIN, {"username": name, "password": password})


def logs_in(address: str, name: str = "mod") -> bool:
    client = Client(REMOTE_ADDR=address)
    answer = client.post(LOGIN, {"username": name, "password": RIGHT})
    return answer.status_code == 302 and bool(client.session.get("_auth_user_id"))


def test_a_full_width_user_name_counts_as_the_name_it_logs_in_as(mod: User,
                                                                 clock: Any) -> None:
    """The walk-around: `ｍod` (full-width m) guessed 15 times, each from another address,
    then the right password. The login form turns `ｍod` into `mod` (NFKC) before it
    authenticates, so those were 15 guesses at mod's password."""
    answers = [guess("\uff4dod", f"10.2.0.{n}").status_code for n in range(15)]
    assert answers[:9] == [200] * 9  # the form again, "wrong password"
    assert set(answers[10:]) == {429}
    refused = Client(REMOTE_ADDR="10.2.1.1").post(LOGIN, {"username": "mod",
                                                          "password": RIGHT})
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 15 * 60
    assert not logs_in("10.2.1.2")
    assert not logs_in("10.2.1.5", "\uff4dod")  # the full-width spelling is refused too
    clock.shift(timedelta(minutes=5))
    assert 0 < int(guess("mod", "10.2.1.3", RIGHT)["Retry-After"]) <= 10 * 60
    # The window ends 15 minutes after the last counted failure: then the password works.
    clock.shift(timedelta(minutes=10, seconds=1))
    assert logs_in("10.2.1.4")


def test_spellings_of_one_name_add_up(mod: User) -> None:
    for n in range(5):
        guess("\uff4dod", f"10.3.0.{n}")
        guess(f"  mod{' ' * n}", f"10.3.1.{n}")
    assert guess("mod", "10.3.2.1", RIGHT).status_code == 429


def test_below_the_limit_the_right_password_works(mod: User) -> None:
    for n in range(9):
        guess("\uff4dod", f"10.4.0.{n}")
    assert logs_in("10.4.1.1")


def test_a_client_address_is_locked_out_after_thirty_failures_for_any_names(
        mod: User) -> None:
    for n in range(30):
        guess(f"user{n}", "10.5.0.1")
    locked = guess("mod", "10.5.0.1", RIGHT)
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert logs_in("10.5.0.2")  # another address: the user name has no failures


@override_settings(RATE_LIMITS={"login_user": [3, 60]})
def test_the_limits_follow_rate_limits(mod: User, clock: Any) -> None:
    for n in range(3):
        guess("mod", f"10.6.0.{n}")
    assert guess("mod", "10.6.1.1", RIGHT).status_code == 429
    clock.shift(timedelta(seconds=61))
    assert logs_in("10.6.1.2")


@override_settings(USE_X_FORWARDED_FOR=True)
def test_behind_the_proxy_the_client_is_the_forwarded_address(mod: User) -> None:
    proxy = Client(REMOTE_ADDR="127.0.0.1")
    for n in range(30):
        proxy.post(LOGIN, {"username": f"user{n}", "password": "wrong"},
                   HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert proxy.post(LOGIN, {"username": "mod", "password": RIGHT},
                      HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
    assert proxy.post(LOGIN, {"username": "mod", "password": RIGHT},
                      HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 302


def test_failures_keep_no_password_token_or_name_in_clear(
        mod: User, caplog: pytest.LogCaptureFixture) -> None:
    client = Client(REMOTE_ADDR="10.7.0.1", enforce_csrf_checks=True)
    page = client.get(LOGIN).content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    with caplog.at_level(logging.DEBUG):
        for _ in range(12):
            client.post(LOGIN, {"username": "mod", "password": "hunter2-secret",
                                "csrfmiddlewaretoken": token})
    stored = " ".join(a.post_data + a.get_data for a in AccessAttempt.objects.all())
    assert AccessAttempt.objects.exists()
    logged = " ".join(record.getMessage() for record in caplog.records)
    for secret in ("hunter2-secret", token, "10.7.0.1"):
        assert secret not in stored and secret not in logged
    assert '"mod"' not in logged
