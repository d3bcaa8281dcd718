"""A host cancels their own tournament while it is open for sign-up: on the home's form
("Tournaments you host"), which asks "are you sure?" first (a page with a box to tick:
without it nothing changes), and through POST /api/me/<token>/tournaments/<id>/cancel
(no question: a script's POST is its own confirmation). The event is cancelled at once,
each member and the host get one email saying its host cancelled it, in their language;
another home (a member's, a stranger's) gets the 404 an unknown event gets and nothing
changes; once started it is 409 and the form is gone; 405 for other methods, 429 with
Retry-After; the sweep afterwards leaves it alone."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.mail.core.notifications import Notification
from games.setup.core.player_defaults import remember_preferences
from games.tournaments.core.event_rows import Tournament
from games.tournaments.services import entries, pairing_rounds
from tests.tournaments.support import home, hosted

pytestmark = pytest.mark.django_db
HOST = "Host@Example.org"  # the host's home is opened as host@example.org: one mailbox
PEOPLE = [f"m{n}@example.org" for n in range(3)]
SUBJECT = "Your tournament on Saboteur by post was cancelled"
BY_HOST = "was cancelled by its host before sign-up closed"




def results_to(address: str) -> list[Any]:
    """The emails to `address`: joining and hosting send none, so only the results."""
    return [m for m in mail.outbox if m.to == [address]]


def cancel_api(client: Client, token: str, event_id: int) -> Any:
    return client.post(f"/api/me/{token}/tournaments/{event_id}/cancel")


def cancel_form(page: str, token: str, event_id: int) -> bool:
    return re.search(rf'action="/me/{token}/tournaments/cancel".*?name="tournament" '
                     rf'value="{event_id}"', page, re.S) is not None


def results() -> int:
    return Notification.objects.filter(kind=Notification.Kind.EVENT_RESULT).count()


def test_the_host_cancels_on_the_home_and_everyone_is_told_once(
        client: Client, commit: Any, clock: Any) -> None:
    cup = hosted(HOST, name="Winter cup")
    for address in PEOPLE[:2]:
        entries.join_event(address, cup.pk)
    token = home("host@example.org")
    page = client.get(f"/me/{token}/").content.decode()
    assert cancel_form(page, token, cup.pk)
    # The button says which tournament to a screen reader, its visible words included.
    assert 'aria-label="Cancel this tournament: Winter cup">Cancel this tournament</button>' \
        in page
    # A member's home has no such form: they do not host it.
    member = home(PEOPLE[0])
    assert not cancel_form(client.get(f"/me/{member}/").content.decode(), member, cup.pk)
    # The home's button asks first: the question, nothing changed.
    with commit():
        asked = client.post(f"/me/{token}/tournaments/cancel", {"tournament": str(cup.pk)})
    assert asked.status_code == 200 and asked["Cache-Control"].startswith("no-store")
    question = asked.content.decode()
    assert "Cancel the tournament “Winter cup”?" in question
    assert "its 2 players and you each get an email" in question
    assert re.search(r'<input type="checkbox" name="sure" id="id_sure" required>\s*'
                     r'<label for="id_sure">Yes, cancel this tournament for everyone</label>',
                     question)
    assert 'name="csrfmiddlewaretoken"' in question and cancel_form(question, token, cup.pk)
    assert f'href="/me/{token}/#tournaments">Keep it: back to my home</a>' in question
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.OPEN and results() == 0 and not mail.outbox
    # The page's POST with its box left unticked: the question again, with the error.
    with commit():
        unticked = client.post(f"/me/{token}/tournaments/cancel",
                               {"tournament": str(cup.pk), "asked": "1"})
    assert unticked.status_code == 400
    text = unticked.content.decode()
    assert 'role="alert" id="sure-error">Tick the box to confirm that you want to cancel ' \
        'the tournament.</p>' in text and 'aria-invalid="true"' in text
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.OPEN and results() == 0 and not mail.outbox
    # GET changes nothing either.
    assert client.get(f"/me/{token}/tournaments/cancel").status_code == 405
    with commit():
        done = client.post(f"/me/{token}/tournaments/cancel",
                           {"tournament": str(cup.pk), "asked": "1", "sure": "on"})
    assert done.status_code == 302 and done["Location"] == f"/me/{token}/#tournaments"
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED and cup.ended_at is not None
    after = client.get(done["Location"]).content.decode()
    assert "You cancelled the tournament “Winter cup”." in after
    assert "Cancelled." in after and not cancel_form(after, token, cup.pk)
    for address in [*PEOPLE[:2], HOST]:
        [letter] = results_to(address)
        assert str(letter.subject) == SUBJECT
        body = str(letter.body)
        assert f"The tournament “Winter cup” {BY_HOST}." in body
        assert "moderators" not in body and f"/tournaments/{cup.pk}/" in body
    assert not results_to(PEOPLE[2])  # not a member: nothing
    # Again: refused (409, the reason on the home), no second email.
    sent = len(mail.outbox)
    for sure in ({}, {"sure": "on"}):  # neither the question nor the cancel
        with commit():
            again = client.post(f"/me/{token}/tournaments/cancel",
                                {"tournament": str(cup.pk), **sure})
        assert again.status_code == 409
        assert "This tournament is no longer open for sign-up" in again.content.decode()
    assert len(mail.outbox) == sent and results() == 3
    # Sign-up would have closed now: the sweep pairs nothing and tells nobody again.
    clock.shift(timedelta(days=3))
    with commit():
        assert pairing_rounds.sweep_tournaments() == {"started": 0, "cancelled": 0,
                                                      "seated": 0, "finished": 0}
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED and not cup.event_rounds.exists()
    assert len(mail.outbox) == sent and results() == 3


def test_the_api_cancels_and_answers_the_event_as_listed(client: Client,
                                                         commit: Any) -> None:
    cup = hosted(HOST, name="Winter cup")
    entries.join_event(PEOPLE[0], cup.pk)
    token = home("host@example.org")
    url = f"/api/me/{token}/tournaments/{cup.pk}/cancel"
    for method in (client.get, client.put, client.delete):
        refused = method(url)
        assert refused.status_code == 405 and refused["Allow"] == "POST"
        assert refused.json()["error"]["code"] == "method_not_allowed"
    assert Tournament.objects.get().status == Tournament.Status.OPEN
    with commit():
        done = cancel_api(client, token, cup.pk)
    assert done.status_code == 200 and done["Cache-Control"] == "no-store, private"
    shown = done.json()
    assert shown["id"] == cup.pk and shown["status"] == "cancelled" and shown["joined"] == 1
    listed = client.get("/api/tournaments/").json()["tournaments"]
    assert listed == [shown]
    assert "example.org" not in done.content.decode()
    for address in (PEOPLE[0], HOST):
        [letter] = results_to(address)
        assert BY_HOST in str(letter.body)
    again = cancel_api(client, token, cup.pk)
    assert again.status_code == 409 and again.json()["error"]["code"] == "tournament_started"
    assert results() == 2


def test_each_reader_is_told_in_their_language(client: Client, commit: Any) -> None:
    cup = hosted(HOST, name="Winter cup", language="de")
    remember_preferences(PEOPLE[0], "nl", "Europe/Amsterdam")
    entries.join_event(PEOPLE[0], cup.pk)
    with commit():
        assert cancel_api(client, home("host@example.org"), cup.pk).status_code == 200
    [german] = results_to(HOST)  # the event's language: the host's home chose none
    assert str(german.subject) == "Dein Turnier bei Saboteur per Post wurde abgesagt"
    assert "von seinem Ausrichter abgesagt" in str(german.body)
    [dutch] = results_to(PEOPLE[0])
    assert "door de organisator geannuleerd" in str(dutch.body)


def test_another_home_is_answered_as_for_no_such_event(client: Client) -> None:
    cup = hosted(HOST, name="Winter cup")
    entries.join_event(PEOPLE[0], cup.pk)
    member, stranger = home(PEOPLE[0]), home(PEOPLE[1])
    answers = [cancel_api(client, member, cup.pk), cancel_api(client, stranger, cup.pk),
               cancel_api(client, home("host@example.org"), 999999)]
    assert {answer.status_code for answer in answers} == {404}
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert answers[0].json()["error"]["code"] == "no_tournament"
    assert cancel_api(client, "unknownlink", cup.pk).json()["error"]["code"] == "not_found"
    # The home's form: the same, for another's event, an unknown one and no number.
    for token, value in ((stranger, str(cup.pk)), (stranger, "999999"), (stranger, "x"),
                         (member, str(cup.pk))):
        for sure in ({}, {"sure": "on"}):  # the question and the cancel alike
            refused = client.post(f"/me/{token}/tournaments/cancel",
                                  {"tournament": value, **sure})
            assert refused.status_code == 404
            text = refused.content.decode()
            assert "There is no such tournament." in text and "Winter cup”?" not in text
    assert client.get(f"/me/{stranger}/tournaments/cancel").status_code == 405
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.OPEN and cup.ended_at is None
    assert cup.entries.count() == 1 and not Notification.objects.filter(
        kind=Notification.Kind.EVENT_RESULT).exists()


def test_a_started_event_is_refused_and_its_form_is_gone(client: Client, clock: Any,
                                                         commit: Any) -> None:
    cup = hosted(HOST, name="Winter cup")
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    token = home("host@example.org")
    clock.shift(timedelta(days=3))
    with commit():
        pairing_rounds.sweep_tournaments()
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING
    page = client.get(f"/me/{token}/").content.decode()
    assert 'id="tournament-' in page and "Tournaments you host" in page
    assert not cancel_form(page, token, cup.pk) and "Cancel this tournament" not in page
    answer = cancel_api(client, token, cup.pk)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "tournament_started"
    for sure in ({}, {"sure": "on"}):
        refused = client.post(f"/me/{token}/tournaments/cancel",
                              {"tournament": str(cup.pk), **sure})
        assert refused.status_code == 409
        assert "only the moderators can cancel it" in refused.content.decode()
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING and cup.ended_at is None
    assert results() == 0


@override_settings(RATE_LIMITS={"tables_home": [2, 3600]})
def test_cancelling_is_limited_per_home_link(client: Client) -> None:
    cup = hosted(HOST, name="Winter cup")
    token = home("host@example.org")
    cancel_api(client, token, 999998)
    cancel_api(client, token, 999999)
    busy = cancel_api(client, token, cup.pk)
    assert busy.status_code == 429 and int(busy["Retry-After"]) > 0
    assert busy.json()["error"]["code"] == "too_many_requests"
    assert Tournament.objects.get().status == Tournament.Status.OPEN
