"""Tournaments in the admin: the list and an event's page (players, rounds, each table's
game linked to its admin page) for staff allowed to see them, addresses only for those
who may see secrets; the moderators' action "cancel" asks for a reason first (none:
refused, nothing changes), then ends an open or running event, emails its players and
host with the reason, leaves its games running and is on the admin's log with the
reason; run again it changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

import pytest
from django.contrib.admin.models import LogEntry
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.urls import reverse

from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.tournaments.core.event_rows import EventTable, Tournament
from games.tournaments.services import entries, pairing_rounds
from tests.moderation_support import logged_in, make_moderator, make_staff
from tests.tournaments.support import event

pytestmark = pytest.mark.django_db
PEOPLE = [f"a{n}@example.org" for n in range(3)]
HOST = "host@example.org"
CHANGELIST = reverse("admin:games_tournament_changelist")
CANCELLED_NOTE = "was cancelled by the moderators"
REASON = "The host asked us: the venue's server is gone"


def running_cup(clock: Any, commit: Any) -> Tournament:
    cup = event(name="Spring cup", players=3, cap=3, rounds=2)
    cup.host_email = HOST
    cup.save(update_fields=["host_email", "host_mailbox"])
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    return cup


def cancel(client: Any, cup: Tournament, commit: Any, reason: str | None = REASON) -> Any:
    """The action's second step: the page's POST with the reason (None: the list's
    POST, which asks for it)."""
    given = {} if reason is None else {"post": "yes", "reason": reason}
    with commit():
        return client.post(CHANGELIST, {"action": "cancel_events",
                                        "_selected_action": [cup.pk], **given})


def test_the_list_and_the_page_show_the_event_addresses_only_to_moderators(
        clock: Any, commit: Any) -> None:
    cup = running_cup(clock, commit)
    (table,) = EventTable.objects.filter(event_round__tournament=cup)
    assert table.game is not None
    moderator = logged_in(make_moderator())
    listed = moderator.get(CHANGELIST)
    assert listed.status_code == 200 and "Spring cup" in listed.content.decode()
    page = moderator.get(reverse("admin:games_tournament_change", args=[cup.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert all(address in text for address in PEOPLE) and HOST in text
    assert reverse("admin:games_game_change", args=[table.game.pk]) in text
    assert f"/tournaments/{cup.pk}/" in text
    filtered = moderator.get(CHANGELIST, {"status__exact": "finished"})
    assert filtered.status_code == 200 and "Spring cup" not in filtered.content.decode()
    # Staff who may look at tournaments but not see secrets: no address.
    viewer = logged_in(make_staff("viewer", "view_tournament", "view_entry",
                                  "view_eventround", "view_eventtable"))
    assert viewer.get(CHANGELIST).status_code == 200
    page = viewer.get(reverse("admin:games_tournament_change", args=[cup.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "Spring cup" in text
    assert not any(address in text for address in [*PEOPLE, HOST])
    # ... nor may they cancel it.
    cancel(viewer, cup, commit)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING
    # Staff without the tournaments' permissions do not get the list.
    assert logged_in(make_staff("other")).get(CHANGELIST).status_code == 403


def test_cancelling_a_running_event_emails_everyone_once_and_its_games_go_on(
        clock: Any, commit: Any) -> None:
    cup = running_cup(clock, commit)
    (game,) = [t.game for t in EventTable.objects.filter(event_round__tournament=cup)]
    assert game is not None
    mail.outbox.clear()
    moderator = logged_in(make_moderator())
    answer = cancel(moderator, cup, commit)
    assert answer.status_code == 302
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED and cup.ended_at is not None
    for address in [*PEOPLE, HOST]:
        [letter] = [m for m in mail.outbox if m.to == [address]]
        assert str(letter.subject) == "Your tournament on Saboteur by post was cancelled"
        assert CANCELLED_NOTE in str(letter.body) and f"/tournaments/{cup.pk}/" in str(
            letter.body)
        assert f"The moderators' reason: {REASON}" in str(letter.body)
        [(html, _kind)] = cast(EmailMultiAlternatives, letter).alternatives
        assert f"<blockquote>{REASON}</blockquote>" in str(html)
    entry = LogEntry.objects.get()
    assert entry.object_id == str(cup.pk) and entry.is_change()
    assert REASON in entry.get_change_message()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # the game goes on as an ordinary game
    # A second run changes nothing: no email, no new log line, the same end.
    ended, sent = cup.ended_at, len(mail.outbox)
    clock.shift(timedelta(hours=1))
    answer = cancel(moderator, cup, commit)
    assert answer.status_code == 302
    cup.refresh_from_db()
    assert (cup.status, cup.ended_at) == (Tournament.Status.CANCELLED, ended)
    assert len(mail.outbox) == sent and LogEntry.objects.count() == 1
    # The sweep no longer moves it on.
    with commit():
        assert pairing_rounds.sweep_tournaments() == {"started": 0, "cancelled": 0,
                                                      "seated": 0, "finished": 0}
    assert Notification.objects.filter(kind=Notification.Kind.EVENT_RESULT).count() == 4


def test_a_finished_event_is_not_cancelled(clock: Any, commit: Any) -> None:
    cup = event(name="Old cup")
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED)
    cancel(logged_in(make_moderator()), cup, commit)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED and cup.ended_at is None
    assert not Notification.objects.exists() and not LogEntry.objects.exists()


def test_the_action_asks_for_a_reason_and_refuses_none(clock: Any, commit: Any) -> None:
    cup = running_cup(clock, commit)
    mail.outbox.clear()
    moderator = logged_in(make_moderator())
    # The list's POST: a page naming the event, asking why; nothing changes yet.
    asked = cancel(moderator, cup, commit, reason=None)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Cancel these tournaments?" in text and f"{cup.pk}: Spring cup" in text
    assert 'name="reason"' in text and "required" in text
    assert 'name="csrfmiddlewaretoken"' in text and 'name="post" value="yes"' in text
    assert f'name="_selected_action" value="{cup.pk}"' in text
    # An empty reason (or spaces only): the page again with the error, nothing changes.
    for blank in ("", "   \n "):
        refused = cancel(moderator, cup, commit, reason=blank)
        assert refused.status_code == 400
        assert "Give a reason: it is kept with the action." in refused.content.decode()
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING and cup.ended_at is None
    assert not mail.outbox and not LogEntry.objects.exists()
    assert not Notification.objects.filter(kind=Notification.Kind.EVENT_RESULT).exists()
    # Staff who may not moderate get no page either: the action is not theirs.
    viewer = logged_in(make_staff("viewer", "view_tournament"))
    assert "Cancel these tournaments?" not in cancel(viewer, cup, commit,
                                                     reason=None).content.decode()
    cancel(viewer, cup, commit)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING


def test_the_reason_reaches_each_reader_in_their_language(clock: Any, commit: Any) -> None:
    cup = event(name="Herbstcup", language="de")
    entries.join_event(PEOPLE[0], cup.pk)
    cancel(logged_in(make_moderator()), cup, commit, reason="Doppelt angelegt")
    [letter] = [m for m in mail.outbox if m.to == [PEOPLE[0]]]
    assert "Doppelt angelegt" in str(letter.body)
    assert "Der Grund der Moderatoren:" in str(letter.body)
