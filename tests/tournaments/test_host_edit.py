"""A host changes their tournament while sign-up is open: on the home's edit page ("Tournaments
you host" -> "Edit this tournament") and through POST /api/me/<token>/tournaments/<id>/edit.
The same checks as creating one (bad input: the form again or 400 naming the field, and
nothing changed), the cap never below the players in; another home gets the 404 an
unknown event gets; once started or cancelled 409; 405, 429. The members are told by one
short email in their language when the game, the table size, the rounds, the clock or
rated changes, and not for a new name alone."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.utils import timezone

from games.mail.core.notifications import Notification
from games.setup.core.player_defaults import remember_preferences
from games.tournaments.core.event_rows import Tournament
from games.tournaments.services import entries, hosting, pairing_rounds
from tests.tournaments.support import home, hosted

pytestmark = pytest.mark.django_db
HOST = "host@example.org"
PEOPLE = [f"e{n}@example.org" for n in range(3)]
SUBJECT = "A tournament you joined has changed"




def edit_api(client: Client, token: str, event_id: int, body: Any) -> Any:
    return client.post(f"/api/me/{token}/tournaments/{event_id}/edit", body,
                       content_type="application/json")


def changed_letters(address: str) -> list[Any]:
    return [m for m in mail.outbox if m.to == [address] and str(m.subject) == SUBJECT]


def told() -> int:
    return Notification.objects.filter(kind=Notification.Kind.EVENT_CHANGED).count()


def settings_of(cup: Tournament) -> tuple[Any, ...]:
    cup.refresh_from_db()
    return (cup.name, cup.ruleset, cup.min_size, cup.max_size, cup.rounds,
            cup.hours_per_move, cup.clock, cup.language, cup.rated, cup.duplicate, cup.cap,
            cup.signup_closes_at, cup.round_days, cup.status)


def form_data(page: str) -> dict[str, str]:
    """The edit form's fields as the page fills them (what a browser would send)."""
    data = dict(re.findall(r'<input type="(?:text|number|datetime-local)" name="(\w+)" '
                           r'value="([^"]*)"', page))
    for name, body in re.findall(r'<select name="(\w+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', body)
        data[name] = chosen.group(1) if chosen else ""
    for name in re.findall(r'<input type="checkbox" name="(\w+)"[^>]* checked', page):
        data[name] = "on"
    return data


def test_the_host_edits_on_the_home_and_the_members_are_told(
        client: Client, commit: Any) -> None:
    cup = hosted(HOST, name="Winter cup", players=4, rounds=3)
    for address in PEOPLE[:2]:
        entries.join_event(address, cup.pk)
    remember_preferences(PEOPLE[1], "it", "Europe/Rome")
    token = home(HOST)
    page = client.get(f"/me/{token}/").content.decode()
    url = f"/me/{token}/tournaments/{cup.pk}/edit"
    assert (f'<a href="{url}" aria-label="Edit this tournament: Winter cup">Edit this '
            f'tournament</a>') in page
    member = home(PEOPLE[0])  # a member does not host it: no link
    assert "Edit this tournament" not in client.get(f"/me/{member}/").content.decode()
    shown = client.get(url)
    assert shown.status_code == 200 and shown["Cache-Control"].startswith("no-store")
    text = shown.content.decode()
    assert "Edit the tournament “Winter cup”" in text and 'name="host_email"' not in text
    assert 'name="csrfmiddlewaretoken"' in text
    data = form_data(text)
    assert data["name"] == "Winter cup" and data["players"] == "4" and data["rounds"] == "3"
    assert data["clock_preset"] == "day" and data["cap"] == "9"
    # Sent back as shown: nothing that matters to the members changed, nobody is told.
    with commit():
        same = client.post(url, {**data, "name": "Winter cup 2026"})
    assert same.status_code == 302
    assert same["Location"] == f"/me/{token}/#tournament-{cup.pk}"
    assert Tournament.objects.get().name == "Winter cup 2026" and told() == 0
    # A new table size, rounds, clock and rated: each member told once, in their language.
    with commit():
        done = client.post(url, {**data, "players": "3-5", "rounds": "4",
                                 "clock_preset": "bank_3_days", "rated": "on"})
    assert done.status_code == 302
    after = client.get(done["Location"]).content.decode()
    assert "The tournament “Winter cup” is changed." in after
    cup.refresh_from_db()
    assert (cup.min_size, cup.max_size, cup.rounds, cup.rated) == (3, 5, 4, True)
    assert cup.clock["bank_hours"] == 72 and cup.name == "Winter cup"
    [letter] = changed_letters(PEOPLE[0])
    body = str(letter.body)
    assert "The host of the tournament “Winter cup” changed what you signed up for." in body
    assert "- Players at a table: 3–5" in body and "- Rounds: 4" in body
    assert "- Clock: A time bank of 3 days per seat" in body and "- Rated: rated" in body
    assert "- Game:" not in body  # the ruleset did not change
    assert f"/tournaments/{cup.pk}/" in body and "/me/" in body
    assert "example.org" not in body
    [italian] = [m for m in mail.outbox if m.to == [PEOPLE[1]]]
    assert str(italian.subject) == "Un torneo a cui ti sei iscritto è cambiato"
    assert not [m for m in mail.outbox if m.to == [HOST]]  # the host knows
    assert told() == 2


def test_bad_input_on_the_page_changes_nothing(client: Client, commit: Any) -> None:
    cup = hosted(HOST, name="Winter cup")
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    token = home(HOST)
    url = f"/me/{token}/tournaments/{cup.pk}/edit"
    data = form_data(client.get(url).content.decode())
    before = settings_of(cup)
    past = (timezone.localtime() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    for bad, words in (({"cap": "2"}, "3 players have joined already: the cap cannot be "
                                      "below that."),
                       ({"players": "11"}, "This ruleset is played by 3 to 10 players"),
                       ({"signup_closes": past}, "Sign-up must close at a time still to "
                                                 "come."),
                       ({"name": ""}, "This field is required."),
                       ({"rounds": "13"}, "Ensure this value is less than or equal to 12.")):
        with commit():
            refused = client.post(url, {**data, **bad})
        assert refused.status_code == 400, bad
        assert words in refused.content.decode(), bad
        assert settings_of(cup) == before and told() == 0 and not mail.outbox


def test_the_api_edits_and_answers_the_event(client: Client, commit: Any) -> None:
    cup = hosted(HOST, name="Winter cup", players=4)
    entries.join_event(PEOPLE[0], cup.pk)
    token = home(HOST)
    closes = (timezone.now() + timedelta(days=5)).replace(microsecond=0)
    with commit():
        done = edit_api(client, token, cup.pk, {
            "name": "Spring cup", "ruleset": "saboteur2", "cap": 20,
            "signup_closes": closes.isoformat(), "clock_preset": "two_days"})
    assert done.status_code == 200 and done["Cache-Control"] == "no-store, private"
    shown = done.json()
    assert shown["id"] == cup.pk and shown["name"] == "Spring cup"
    assert shown["ruleset"] == "saboteur2" and shown["players"] == {"min": 4, "max": 4}
    assert shown["cap"] == 20 and shown["clock_preset"] == "two_days"
    assert shown["hours_per_move"] == 48 and shown["joined"] == 1
    assert shown["signup_closes"] == closes.isoformat()
    assert client.get(f"/api/tournaments/{cup.pk}/").json()["name"] == "Spring cup"
    [letter] = changed_letters(PEOPLE[0])
    assert "- Game: Saboteur 2" in str(letter.body) and "- Clock: 2 days per move." in str(
        letter.body)
    # An empty object changes nothing and tells nobody.
    assert edit_api(client, token, cup.pk, {}).status_code == 200 and told() == 1


def test_each_refusal_of_the_api_changes_nothing(client: Client, commit: Any) -> None:
    cup = hosted(HOST, name="Winter cup")
    for address in PEOPLE[:2]:
        entries.join_event(address, cup.pk)
    token = home(HOST)
    before = settings_of(cup)
    refusals = [
        ({"cap": 1}, "bad_request", "cap"),
        ({"cap": 1.5}, "bad_request", "cap"),
        ({"cap": 2, "name": "Fine"}, None, None),  # 2 is fine: two have joined
        ({"players": 2}, "bad_players", "players"),
        ({"ruleset": "chess"}, "unknown_ruleset", "ruleset"),
        ({"rounds": "3"}, "bad_request", "rounds"),
        ({"rated": "yes"}, "bad_request", "rated"),
        ({"clock_preset": "fortnight"}, "bad_request", "clock_preset"),
        ({"clock_preset": "day", "hours_per_move": 8}, "bad_request", "clock_preset"),
        ({"language": "fr"}, "bad_request", "language"),
        ({"signup_closes": "yesterday"}, "bad_request", "signup_closes"),
        ({"name": " "}, "bad_request", "name"),
        ({"host_email": "me@example.org"}, "bad_request", "host_email"),
        ({"seed": 1}, "bad_request", "seed"),
    ]
    for body, code, field in refusals:
        answer = edit_api(client, token, cup.pk, body)
        if code is None:
            assert answer.status_code == 200, body
            cup.refresh_from_db()
            assert (cup.cap, cup.name) == (2, "Fine")
            Tournament.objects.filter(pk=cup.pk).update(cap=before[10], name=before[0])
            continue
        assert answer.status_code == 400, body
        error = answer.json()["error"]
        assert (error["code"], error.get("field")) == (code, field), body
        assert settings_of(cup) == before, body
    for raw, code in (("[1]", "bad_request"), ("{", "bad_json"), ("", "bad_request")):
        answer = client.post(f"/api/me/{token}/tournaments/{cup.pk}/edit", raw,
                             content_type="application/json")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == code
    big = edit_api(client, token, cup.pk, {"name": "x" * 5000})
    assert big.status_code == 413
    for method in (client.get, client.put, client.delete, client.patch):
        refused = method(f"/api/me/{token}/tournaments/{cup.pk}/edit")
        assert refused.status_code == 405 and refused["Allow"] == "POST"
    assert settings_of(cup) == before and told() == 0


def test_another_home_gets_the_404_of_no_such_event(client: Client) -> None:
    cup = hosted(HOST, name="Winter cup")
    entries.join_event(PEOPLE[0], cup.pk)
    before = settings_of(cup)
    member, stranger = home(PEOPLE[0]), home(PEOPLE[1])
    answers = [edit_api(client, member, cup.pk, {"name": "Mine"}),
               edit_api(client, stranger, cup.pk, {"name": "Mine"}),
               edit_api(client, home(HOST), 999999, {"name": "Mine"})]
    assert {answer.status_code for answer in answers} == {404}
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert answers[0].json()["error"]["code"] == "no_tournament"
    assert edit_api(client, "unknownlink", cup.pk, {})["Content-Type"].startswith(
        "application/json")
    for token in (member, stranger):
        path = f"/me/{token}/tournaments/{cup.pk}/edit"
        for refused in (client.get(path), client.post(path, {"name": "Mine"})):
            assert refused.status_code == 404
            assert "There is no such tournament." in refused.content.decode()
    assert settings_of(cup) == before


def test_started_or_cancelled_it_can_no_longer_be_changed(client: Client, clock: Any,
                                                          commit: Any) -> None:
    cup, gone = hosted(HOST, name="Winter cup"), hosted(HOST, name="Winter cup")
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    token = home(HOST)
    with commit():
        hosting.cancel_hosted(HOST, gone.pk)
    clock.shift(timedelta(days=2, minutes=1))
    # Sign-up's time has passed, not yet paired by the sweep: too late already.
    late = edit_api(client, token, cup.pk, {"name": "Late"})
    assert late.status_code == 409 and late.json()["error"]["code"] == "tournament_started"
    with commit():
        pairing_rounds.sweep_tournaments()
    before = settings_of(cup)
    assert before[-1] == Tournament.Status.RUNNING
    for event_id in (cup.pk, gone.pk):
        answer = edit_api(client, token, event_id, {"name": "Late"})
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "tournament_started"
        page = client.get(f"/me/{token}/tournaments/{event_id}/edit")
        assert page.status_code == 409
        assert "it can no longer be changed" in page.content.decode()
    assert settings_of(cup) == before and told() == 0
    home_page = client.get(f"/me/{token}/").content.decode()
    assert "Edit this tournament" not in home_page


@override_settings(RATE_LIMITS={"tables_home": [2, 3600]})
def test_editing_is_limited_per_home_link(client: Client) -> None:
    cup = hosted(HOST, name="Winter cup")
    token = home(HOST)
    edit_api(client, token, cup.pk, {"name": "One"})
    edit_api(client, token, cup.pk, {"name": "Two"})
    busy = edit_api(client, token, cup.pk, {"name": "Three"})
    assert busy.status_code == 429 and int(busy["Retry-After"]) > 0
    assert busy.json()["error"]["code"] == "too_many_requests"
    assert Tournament.objects.get().name == "Two"
