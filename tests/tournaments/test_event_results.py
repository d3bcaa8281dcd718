"""The event's result email: when an event ends, each member (a dropped one too) and the
host get one email, once, in their language: finished, with their own place and score
of the field, the top of the standings (public names, never an address) and the link to
the event's page; cancelled (too few joined), a short note. A forgotten member gets
none."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import PublicName
from games.tournaments.core.event_rows import Entry, EventTable, Tournament
from games.tournaments.services import entries, pairing_rounds, results
from tests.tournaments.support import finish, hosted

pytestmark = pytest.mark.django_db
PEOPLE = [f"r{n}@example.org" for n in range(4)]
HOST = "host@example.org"
PLACE = re.compile(r"You finished in place (\d+) of (\d+), with a score of ([\d.]+)\.")


def letters_to(address: str) -> list[Any]:
    return [m for m in mail.outbox if m.to == [address]]


def results_to(address: str) -> list[Any]:
    return [m for m in letters_to(address) if "Your tournament on" in str(m.subject)]


def open_games(cup: Tournament) -> list[Game]:
    return [table.game for table in EventTable.objects.filter(
        event_round__tournament=cup, ended_at__isnull=True).select_related("game")
        if table.game is not None and table.game.status == Game.Status.ACTIVE]



def play_to_the_end(cup: Tournament, commit: Any) -> None:
    for seed in range(10):
        with commit():
            pairing_rounds.sweep_tournaments()
        cup.refresh_from_db()
        if cup.status == Tournament.Status.FINISHED:
            return
        for game in open_games(cup):
            finish(game, seed)
    raise AssertionError("the event did not end")


def test_each_member_and_the_host_get_one_result_with_their_own_place(
        clock: Any, commit: Any) -> None:
    cup = hosted(HOST, players=3, cap=3, rounds=2)
    for address in PEOPLE[:3]:
        entries.join_event(address, cup.pk)
    PublicName.objects.create(mailbox=mailbox_key_hash(PEOPLE[1]), name="Bea")
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    # After round 1 one player is dropped (two no-shows): still told the result.
    for game in open_games(cup):
        finish(game)
    dropped = Entry.objects.get(tournament=cup, address=PEOPLE[2])
    Entry.objects.filter(pk=dropped.pk).update(no_shows=2, dropped_at=timezone.now())
    assert not any(results_to(address) for address in [*PEOPLE, HOST])  # nothing before
    play_to_the_end(cup, commit)
    standings = {row.standing.member: row for row in results.standings(cup)}
    for address in PEOPLE[:3]:
        [letter] = results_to(address)
        entry = Entry.objects.get(tournament=cup, address=address)
        mine = standings[entry.pk]
        body = str(letter.body)
        found = PLACE.search(body)
        assert found is not None, body
        assert (int(found.group(1)), int(found.group(2))) == (mine.standing.rank, 3)
        assert float(found.group(3)) == pytest.approx(mine.standing.score, abs=0.005)
        assert "Autumn cup" in body and f"/tournaments/{cup.pk}/" in body
        # The top of the standings by public name, else "Player N"; never an address.
        assert "Bea" in body and "Player 1" in body
        assert not any(someone in body for someone in [*PEOPLE, HOST])
        assert "/play/" not in body and "/me/" not in body  # no seat or home link
        assert ("dropped after two no-shows" in body) == (address == PEOPLE[2])
        html = letter.alternatives[0][0]
        assert f"/tournaments/{cup.pk}/" in html and "Bea" in html
    [to_host] = results_to(HOST)
    assert "You hosted it; 3 players took part." in str(to_host.body)
    assert not PLACE.search(str(to_host.body))
    # The sweep again (and again later) sends nothing more.
    before = len(mail.outbox)
    clock.shift(timedelta(days=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    assert len(mail.outbox) == before
    assert Notification.objects.filter(kind=Notification.Kind.EVENT_RESULT).count() == 4


def test_a_host_who_plays_gets_the_members_email_only(clock: Any, commit: Any) -> None:
    cup = hosted(HOST, players=3, cap=3, rounds=1)
    for address in [PEOPLE[0], PEOPLE[1], "Host@Example.org"]:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    play_to_the_end(cup, commit)
    [letter] = [m for m in mail.outbox if "Your tournament on" in str(m.subject)
                and m.to[0].lower() == HOST]
    assert PLACE.search(str(letter.body))


def test_too_few_players_the_cancelled_note_in_the_events_language(
        clock: Any, commit: Any) -> None:
    cup = hosted(HOST, language="de")
    entries.join_event(PEOPLE[0], cup.pk)
    clock.shift(timedelta(days=3))
    with commit():
        assert pairing_rounds.sweep_tournaments()["cancelled"] == 1
    for address in (PEOPLE[0], HOST):
        [letter] = [m for m in letters_to(address) if "Turnier" in str(m.subject)]
        assert str(letter.subject) == "Dein Turnier bei Saboteur per Post wurde abgesagt"
        body = str(letter.body)
        assert "zu wenige Spieler" in body and f"/tournaments/{cup.pk}/" in body
        assert not PLACE.search(body)
    with commit():
        pairing_rounds.sweep_tournaments()
    assert Notification.objects.filter(kind=Notification.Kind.EVENT_RESULT).count() == 2


def test_a_forgotten_member_gets_no_result(clock: Any, commit: Any) -> None:
    from games.home.services.erase import erase_address

    cup = hosted(HOST, players=3, cap=3, rounds=1)
    for address in PEOPLE[:3]:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    erase_address(PEOPLE[0])
    mail.outbox.clear()
    play_to_the_end(cup, commit)
    assert results_to(PEOPLE[0]) == []
    assert not Notification.objects.filter(to_email__iexact=PEOPLE[0]).exists()
    assert all(len(results_to(address)) == 1 for address in (PEOPLE[1], PEOPLE[2], HOST))
