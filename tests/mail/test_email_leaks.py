"""Every email of a whole seeded game, checked for leaks.

The game is played to the end with the emails really sent (the queued tasks run after
each commit, as a worker would; locmem backend): turn emails, gold picks, reminders,
missed deadlines (some turns time out), round and game ends, a daily digest. For each email:
- no card id of another seat's hand appears, and the hand section lists exactly the
  recipient's own hand;
- rendering it again from a *perturbed* state (every hidden fact changed: other hands
  and the deck re-dealt, other roles flipped, the goals the recipient has not seen
  shuffled, other seats' gold moved round) gives the very same email. So nothing the
  recipient may not know can have shaped it: no other hand, no role before the round
  ends, no unrevealed goal they have not mapped. Every email but a turn email is
  rendered again, and one turn email in three (drawn by a seeded generator): all of a
  whole game's turn emails twice would double the test's time for one template.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
import time_machine
from django.core import mail
from django.test import override_settings

from games import engine, tasks
from games.game.core.game import EmailMode, Game
from games.mail.core import letter_registry
from games.mail.core.message import inline_css
from games.mail.core.notifications import Notification
from games.seats.core.seat import Seat
from games.seatview.core import describe
from games.setup.services import game_setup
from tests.email_support import play_one, word
from tests.support import make_game, other_hands, perturbed

pytestmark = pytest.mark.django_db
START = datetime.fromisoformat("2026-03-02 09:00:00+00:00")
TURN_EMAILS_RENDERED_AGAIN = 1 / 3
CHECKED_KINDS = {"turn", "reminder", "missed", "round_end", "game_end", "digest", "invitation"}


def hand_section(body: str) -> list[str]:
    section = body.split("\nYour hand:\n", 1)[1].split("\n\n", 1)[0]
    # Cards are numbered 1..N (the numbers a reply by email uses); "- " only for no cards.
    lines = section.splitlines()
    numbered = [line.split(". ", 1)[1] for i, line in enumerate(lines, 1)
                if line.startswith(f"{i}. ")]
    return numbered or [line[2:] for line in lines if line.startswith("- ")]


def check_email(message: Any, game: Game, rng: random.Random, seen: set[str]) -> None:
    number = int(message.to[0][1])  # p<N>@example.com
    state = game.state()
    text = "\n".join([message.subject, message.body, message.alternatives[0][0]])
    for card in other_hands(state, number):
        assert not word(card).search(text), f"seat {number} sees {card} of another hand"
    if "\nYour hand:\n" in message.body:
        own = [describe.card_name(c) for c in engine.view(state, number)["hand"]]
        assert hand_section(message.body) == (own or ["You hold no cards."])
    note = Notification.objects.select_related("seat", "game").get(
        message_id=message.extra_headers["Message-ID"])
    seen.add(note.kind)
    assert note.kind in CHECKED_KINDS
    if note.kind == "turn" and rng.random() >= TURN_EMAILS_RENDERED_AGAIN:
        return
    other = perturbed(state, number, rng)
    with mock.patch.object(Game, "state", return_value=other):
        letter = letter_registry.letter_for(note)
    sent = (message.subject, message.body, message.alternatives[0][0])
    assert (letter.subject, letter.text, inline_css(letter.html)) == sent, (
        f"{note.kind} to seat {number} depends on something it may not know")


@override_settings(DIGEST_HOUR=0)
def test_no_email_of_a_whole_game_leaks_a_secret(commit: Any) -> None:
    rng, check_rng = random.Random(5), random.Random(99)
    seen: set[str] = set()
    checked = 0

    def check_new() -> None:
        # Right after each change: the emails it caused against the state they describe.
        nonlocal checked
        game = g.refresh()
        for message in mail.outbox[checked:]:
            check_email(message, game, check_rng, seen)
        checked = len(mail.outbox)

    with time_machine.travel(START, tick=False) as clock:
        with commit():
            g = make_game(players=3, seed=5, start=False, invite=True)
        check_new()
        Seat.objects.filter(pk=g.seats[2].pk).update(email_mode=EmailMode.DAILY_DIGEST)
        with commit():
            game_setup.start_game(g.game.pk)
        check_new()
        for step in range(1, 1000):
            game = g.refresh()
            if game.status != Game.Status.ACTIVE:
                break
            assert game.deadline_at is not None
            if step % 9:
                clock.shift(timedelta(minutes=30))
                play_one(g, rng, commit)
                check_new()
                continue
            # This turn runs out: reminders, the digest, then the timeout.
            for hours in (12, 1, 0):
                clock.move_to(game.deadline_at - timedelta(hours=hours))
                for sweep in (tasks.sweep_reminders, tasks.sweep_digests,
                              tasks.sweep_deadlines):
                    with commit():
                        sweep()
                    check_new()
    assert g.refresh().status == Game.Status.FINISHED
    assert seen == CHECKED_KINDS, seen
    assert checked > 100
