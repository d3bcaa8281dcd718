"""What one turn email costs in SQL statements, pinned at what it takes: planning it after
a move (the beat's follow-up) and writing and sending it (the worker's send task). Each
statement costs the worker more CPU than the database's own work for it
(bench/emails.py; bench/README.md "A move's emails"), so a change that reads the game,
its seats or its log once more per email fails here.

The test runs in a transaction of its own: there the follow-up's transaction is a
savepoint too (two statements, SAVEPOINT and RELEASE).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest
from django.core import mail

from games.mail.core.notifications import Notification
from games.mail.services import move_emails, send
from games.moves.services.seat_services import post_message
from tests.email_support import play_one
from tests.support import make_game

pytestmark = pytest.mark.django_db

# The follow-up of a move in round 1: its transaction (2), the claim of its row, the game
# and its seats (3), the game's savepoint (2), the move that made the version, whether
# the seat was told this turn already, forgotten addresses (3), the row's savepoint and
# insert (3), the push devices of its address, the delete of the claimed row (2).
PLANNING = 15
# The claim, the row with its seat and game, an earlier email still to go, a forgotten
# address (4), the game's log, its seats' names, its notices (3), the reply token, the
# home link (2), the talk: the seat's last turn email, any line since (2), the row's
# update, a later email waiting (2).
SENDING = 13
# With a line of table talk since the seat's last turn email: whether a digest read the
# talk since, who muted whom, the lines (the seats' names are the letter's already).
WITH_TALK = SENDING + 3


def a_move_made(commit: Any, talk: str = "") -> None:
    """A 3-seat game in which every seat has had a turn email, and one more move, committed
    (with `talk`, said by its mover first) whose emails are still to plan."""
    with commit():
        g = make_game(players=3, seed=5, start=True)
    rng = random.Random(5)
    for _ in range(3):
        play_one(g, rng, commit)
    if talk:
        with commit():
            post_message(g.seats[g.actor_seat()], talk)
    play_one(g, rng, partial(commit, worker=False))


def test_a_turn_email_takes_few_statements_to_plan_and_to_write_and_send(
        commit: Any, django_assert_max_num_queries: Any) -> None:
    a_move_made(commit)
    with django_assert_max_num_queries(PLANNING):
        assert move_emails.follow_up_due() == 1
    note = Notification.objects.filter(kind=Notification.Kind.TURN).latest("pk")
    with django_assert_max_num_queries(SENDING):
        assert send.deliver(note.pk).status == Notification.Status.SENT
    assert "your turn" in mail.outbox[-1].subject and mail.outbox[-1].to == [note.to_email]


def test_the_talk_since_the_last_email_takes_three_more(
        commit: Any, django_assert_max_num_queries: Any) -> None:
    a_move_made(commit, talk="Shall we dig east?")
    move_emails.follow_up_due()
    note = Notification.objects.filter(kind=Notification.Kind.TURN).latest("pk")
    with django_assert_max_num_queries(WITH_TALK):
        assert send.deliver(note.pk).status == Notification.Status.SENT
    assert "Shall we dig east?" in mail.outbox[-1].body
