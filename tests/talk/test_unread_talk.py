"""Unread table talk (issue 48, item 4): the home counts per game the talk lines the seat
has not read, the seat page marks where they begin, `@name` brings the player called an
email (their chosen channel; one an hour a game at most), and the digest counts the
unread talk."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.game.core.game import EmailMode
from games.mail.services import reminder_sweeps
from games.people.core.home_links import home_token
from games.seats.core.seat import Seat
from tests.handover.test_takeover import pass_move
from tests.support import GameWithLinks, make_game

pytestmark = pytest.mark.django_db

UNREAD_ON_HOME = re.compile(r"(\d+) unread lines? of table talk")


def say(client: Client, g: GameWithLinks, number: int, text: str) -> None:
    assert client.post(g.page(number) + "say", {"text": text}).status_code == 302


def home_unread(client: Client, address: str) -> list[str]:
    body = client.get(f"/me/{home_token(address)}/").content.decode()
    return UNREAD_ON_HOME.findall(body)


def calls_to(address: str) -> list[str]:
    return [str(m.body) for m in mail.outbox
            if address in m.to and "wrote to you in the table talk" in str(m.subject)]


def test_the_home_counts_the_lines_not_read_and_the_page_reads_them(client: Client) -> None:
    g = make_game(players=3, seed=5)
    say(client, g, 0, "Hello all")
    say(client, g, 2, "Good luck")
    say(client, g, 1, "Thanks")  # Bob's own line is never unread to him
    assert home_unread(client, "p1@example.com") == ["2"]
    assert home_unread(client, "p0@example.com") == ["2"]
    client.get(g.page(1))
    assert home_unread(client, "p1@example.com") == []
    say(client, g, 0, "Your move, Bob")
    assert home_unread(client, "p1@example.com") == ["1"]
    answer = client.get(f"/api/me/{home_token('p1@example.com')}/").json()
    assert [game["unread_talk"] for game in answer["games"]] == [1]


def test_the_seat_page_marks_where_the_unread_lines_begin(client: Client) -> None:
    g = make_game(players=3, seed=5)
    say(client, g, 0, "Read already")
    client.get(g.page(1))
    say(client, g, 0, "First new line")
    say(client, g, 2, "Second new line")
    body = client.get(g.page(1)).content.decode()
    talk = body[body.index('id="talk-messages"'):]
    assert "New since you last looked: 2 lines" in talk
    mark = talk.index('id="unread"')
    assert talk.index("Read already") < mark < talk.index("First new line")
    # Read now: the mark is gone on the next visit.
    assert 'id="unread"' not in client.get(g.page(1)).content.decode()


def test_a_muted_players_lines_are_not_counted_as_unread(client: Client) -> None:
    g = make_game(players=3, seed=5)
    client.post(g.page(1) + "mute", {"seat": "0", "action": "mute"})
    say(client, g, 0, "Hidden from Bob")
    say(client, g, 2, "Seen by Bob")
    assert home_unread(client, "p1@example.com") == ["1"]


def test_a_call_by_name_emails_the_player_once_an_hour(
        client: Client, commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    with commit():
        say(client, g, 0, "@player1 what do you think?")
    [call] = calls_to("p1@example.com")
    assert "what do you think?" in call and f"{g.page(1)}#unread" in call
    assert calls_to("p2@example.com") == []  # nobody else was called
    with commit():
        say(client, g, 2, "@Player1 and me?")
    assert len(calls_to("p1@example.com")) == 1  # within the hour: the page has it
    clock.shift(timedelta(minutes=61))
    with commit():
        say(client, g, 2, "@Player1 an hour later")
    assert len(calls_to("p1@example.com")) == 2


def test_no_call_email_for_a_part_name_links_only_or_a_muted_writer(
        client: Client, commit: Any) -> None:
    g = make_game(players=3, seed=5)
    Seat.objects.filter(pk=g.seats[2].pk).update(email_mode=EmailMode.LINKS_ONLY)
    client.post(g.page(1) + "mute", {"seat": "0", "action": "mute"})
    with commit():
        say(client, g, 0, "@Player1 are you there? @Player2 you?")
        say(client, g, 2, "@Player11 is nobody")
    assert calls_to("p1@example.com") == [] and calls_to("p2@example.com") == []


def test_the_digest_counts_the_unread_talk(client: Client, commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    Seat.objects.filter(pk=g.seats[1].pk).update(email_mode=EmailMode.DAILY_DIGEST)
    with commit():
        say(client, g, 2, "Morning all")
        say(client, g, 0, "Hi")
        pass_move(client, g.page(0))  # Bob's turn: his digest lists the game
    clock.shift(timedelta(days=1))
    with commit():
        reminder_sweeps.sweep_digests()
    [digest] = [m for m in mail.outbox if "p1@example.com" in m.to and "waiting" in m.subject]
    assert "2 unread lines of table talk" in str(digest.body)


def test_a_newcomer_in_the_seat_has_read_nothing_yet(client: Client) -> None:
    g = make_game(players=3, seed=5)
    say(client, g, 0, "Before the change")
    client.get(g.page(1))
    assert home_unread(client, "p1@example.com") == []
    seat = Seat.objects.get(pk=g.seats[1].pk)
    seat.email = "newcomer@example.com"
    seat.save()  # the mailbox key follows the address
    assert home_unread(client, "newcomer@example.com") == ["1"]
    body = client.get(g.page(1)).content.decode()
    assert "New since you last looked: 1 line" in body
    assert home_unread(client, "newcomer@example.com") == []
