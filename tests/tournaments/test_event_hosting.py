"""A host's own tournament: /tournaments/new/ asks, the emailed link confirms (GET shows,
POST creates, once), the limits per client and per mailbox, bad input (the form again,
400, nothing kept), the home listing the events it hosts, and the home's JSON twin
POST /api/me/<token>/tournaments (201, 400 naming the field, 429 with Retry-After)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.utils import timezone

from games.people.core.home_links import home_link
from games.tournaments.core.event_rows import EventRequest, Tournament
from tests.support import token_of

pytestmark = pytest.mark.django_db
HOST = "Host@Example.org"
CONFIRM = re.compile(r"/tournaments/confirm/([^/\s\"]+)/")


def form(**extra: Any) -> dict[str, Any]:
    closes = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    return {"name": "Winter cup", "ruleset": "base", "players": "4-6", "rounds": "4",
            "clock_preset": "bank_3_days", "language": "en", "rated": "on", "cap": "32",
            "signup_closes": closes, "round_days": "21", "host_email": HOST, **extra}


def asked(client: Client, commit: Any, **extra: Any) -> str:
    """The path of the confirmation link emailed for a valid request."""
    with commit():
        answer = client.post("/tournaments/new/", form(**extra))
    assert answer.status_code == 302 and answer["Location"] == "/tournaments/new/sent/"
    [letter] = [m for m in mail.outbox if m.to == [HOST]]
    found = CONFIRM.search(str(letter.body))
    assert found, letter.body
    return f"/tournaments/confirm/{found.group(1)}/"


def test_the_form_then_the_emailed_link_creates_the_event(client: Client,
                                                          commit: Any) -> None:
    page = client.get("/tournaments/new/")
    assert page.status_code == 200 and b"csrfmiddlewaretoken" in page.content
    link = asked(client, commit)
    assert not Tournament.objects.exists()  # nothing until the host confirms
    assert client.get("/tournaments/new/sent/").status_code == 200
    shown = client.get(link)
    assert shown.status_code == 200 and b"Winter cup" in shown.content
    assert shown["Cache-Control"] == "no-store, private"
    assert not Tournament.objects.exists()  # GET changes nothing
    created = client.post(link)
    cup = Tournament.objects.get()
    assert created.status_code == 302 and created["Location"] == f"/tournaments/{cup.pk}/"
    assert (cup.name, cup.min_size, cup.max_size, cup.rounds, cup.cap, cup.rated,
            cup.round_days) == ("Winter cup", 4, 6, 4, 32, True, 21)
    assert cup.hours_per_move == 24 and cup.clock["bank_hours"] == 72
    assert cup.host_email == HOST
    # A second confirmation creates nothing more; the link shows the event.
    client.post(link)
    assert Tournament.objects.count() == 1
    assert b"This tournament is created" in client.get(link).content


def test_the_home_lists_the_events_it_hosts(client: Client, commit: Any) -> None:
    client.post(asked(client, commit))
    cup = Tournament.objects.get()
    # The same mailbox, however it is spelled.
    token = token_of(home_link("host@example.org"))
    page = client.get(f"/me/{token}/").content.decode()
    assert "Tournaments you host" in page and f'id="tournament-{cup.pk}"' in page
    hosted = client.get(f"/api/me/{token}/").json()["hosted_tournaments"]
    assert [item["id"] for item in hosted] == [cup.pk]


def test_an_unknown_or_expired_link_opens_nothing(client: Client, commit: Any,
                                                  clock: Any) -> None:
    assert client.get("/tournaments/confirm/" + "a" * 43 + "/").status_code == 404
    link = asked(client, commit)
    clock.shift(timedelta(hours=25))
    assert client.get(link).status_code == 404
    assert client.post(link).status_code == 404
    assert not Tournament.objects.exists()


def test_a_window_closed_before_confirming_is_refused(client: Client, commit: Any,
                                                      clock: Any) -> None:
    closes = (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    link = asked(client, commit, signup_closes=closes)
    clock.shift(timedelta(hours=3))
    refused = client.post(link)
    assert refused.status_code == 400 and b"Sign-up must close" in refused.content
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("field", "value", "words"), [
    ("players", "2", "played by 3 to 10 players"),
    ("players", "many", "played by 3 to 10 players"),
    ("rounds", "13", "less than or equal to 12"),
    ("clock_preset", "forever", "Select a valid choice"),
    ("signup_closes", "2020-01-01T10:00", "Sign-up must close"),
    ("signup_closes", "soon", "Enter a valid date/time"),
    ("name", "", "This field is required"),
    ("host_email", "nobody", "Enter a valid email address"),
])
def test_bad_input_shows_the_form_again_and_keeps_nothing(
        client: Client, commit: Any, field: str, value: str, words: str) -> None:
    with commit():
        answer = client.post("/tournaments/new/", form(**{field: value}))
    assert answer.status_code == 400
    assert words in answer.content.decode()
    assert b"Winter cup" in answer.content or field == "name"  # the form keeps the rest
    assert not EventRequest.objects.exists() and not Tournament.objects.exists()
    assert not mail.outbox


@override_settings(RATE_LIMITS={"event_client": [2, 3600], "event_mailbox": [1, 86400]})
def test_limits_per_client_and_per_mailbox(client: Client, commit: Any) -> None:
    asked(client, commit)
    # The same mailbox spelled another way gets no second email today.
    again = client.post("/tournaments/new/", form(host_email="host+cup@example.org"))
    assert again.status_code == 429 and int(again["Retry-After"]) > 0
    third = client.post("/tournaments/new/", form(host_email="other@example.org"))
    assert third.status_code == 429  # the client's own limit
    assert EventRequest.objects.count() == 1 and len(mail.outbox) == 1


def api(client: Client, token: str, body: Any) -> Any:
    return client.post(f"/api/me/{token}/tournaments", body, content_type="application/json")


def test_a_home_creates_an_event_through_the_api(client: Client) -> None:
    token = token_of(home_link("ann@example.org"))
    closes = (timezone.now() + timedelta(days=2)).isoformat()
    answer = api(client, token, {"name": "Ann's cup", "players": 5, "rounds": 2,
                                 "clock_preset": "day", "signup_closes": closes,
                                 "duplicate": True})
    assert answer.status_code == 201
    made = answer.json()
    cup = Tournament.objects.get()
    assert made["id"] == cup.pk and made["players"] == {"min": 5, "max": 5}
    assert made["clock_preset"] == "day" and made["duplicate"] is True
    assert cup.host_email == "ann@example.org"
    assert [e["id"] for e in client.get(f"/api/me/{token}/").json()["hosted_tournaments"]] \
        == [cup.pk]


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"name": "Cup", "signup_closes": "tomorrow"}, 400, "signup_closes"),
    ({"name": "Cup", "signup_closes": "2030-01-01T00:00Z", "rounds": "3"}, 400, "rounds"),
    ({"name": "Cup", "signup_closes": "2030-01-01T00:00Z", "clock_preset": "x"}, 400,
     "clock_preset"),
    ({"name": "Cup", "signup_closes": "2030-01-01T00:00Z", "players": 11}, 400, "players"),
    ({"name": "", "signup_closes": "2030-01-01T00:00Z"}, 400, "name"),
    ({"name": "Cup", "signup_closes": "2030-01-01T00:00Z", "cap": 1}, 400, "cap"),
    ([1, 2], 400, None),
])
def test_the_api_refuses_bad_input_naming_the_field(client: Client, body: Any, status: int,
                                                    field: str | None) -> None:
    token = token_of(home_link("ann@example.org"))
    answer = api(client, token, body)
    assert answer.status_code == status
    assert answer.json()["error"].get("field") == field
    assert not Tournament.objects.exists()


@override_settings(RATE_LIMITS={"event_home": [1, 86400]})
def test_the_api_is_limited_per_home(client: Client) -> None:
    token = token_of(home_link("ann@example.org"))
    body = {"name": "Cup", "signup_closes": "2030-01-01T00:00Z"}
    assert api(client, token, body).status_code == 201
    busy = api(client, token, body)
    assert busy.status_code == 429 and int(busy["Retry-After"]) > 0
    assert busy.json()["error"]["code"] == "too_many_requests"
    assert client.get(f"/api/me/{token}/tournaments").status_code == 405
    assert api(client, "unknownlink", body).status_code == 404
    assert Tournament.objects.count() == 1


def test_forgetting_the_host_keeps_the_event_without_the_address(client: Client,
                                                                 commit: Any) -> None:
    from games.home.services.export import export_player_data
    from games.home.services.forget import forget_player

    client.post(asked(client, commit))
    asked_again = form(name="Spring cup")
    with commit():
        client.post("/tournaments/new/", asked_again)  # asked, never confirmed
    cup = Tournament.objects.get()
    assert [row["tournament"] for row in export_player_data(HOST)["tournaments_hosted"]] == [cup.pk]
    forget_player("host@example.org")
    cup.refresh_from_db()
    assert cup.host_email == "" and cup.host_mailbox == ""
    assert not EventRequest.objects.filter(tournament__isnull=True).exists()
