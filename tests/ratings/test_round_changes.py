"""What a counted round did to the ratings, shown at its end: on the seat page and in its
JSON ("Your rating: +31, now 1602"), the reader's own and those of the table's players who
list theirs, nobody else's; in the round's end email, which waits (unsent, in line) while
the round is still to be rated, is sent on by the ratings' sweep once it is, and stops
waiting after RATING_WAIT. Rated rounds are set up directly; one round is played to check
the email as the worker sends it."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone, translation

from games import engine
from games.mail.core.notifications import Notification
from games.mail.services import send
from games.mail.services.notification_rows import Spec, create
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import PublicName
from games.ratings.core.rating_rows import RatingChange, RatingDue
from games.ratings.doors import rating_letters
from games.ratings.services import rating_outbox
from games.ratings.services.shown import moved
from tests.email_support import sent_to
from tests.ratings.support import play_on, rated_game, rated_round
from tests.support import GameWithLinks, make_game, move_for, queued_tasks

pytestmark = pytest.mark.django_db


def table() -> GameWithLinks:
    """A rated game of four: p1 lists its ratings (public name Bert), p2 does not."""
    g = make_game(players=4, seed=1, rated=True)
    PublicName.objects.create(mailbox=mailbox_key_hash("p1@example.com"), name="Bert",
                              ratings_listed=True)
    PublicName.objects.create(mailbox=mailbox_key_hash("p2@example.com"), name="Cyd")
    return g


CHANGES = {"p0@example.com": (0, 1571, 1602), "p1@example.com": (1, 1492, 1480),
           "p2@example.com": (2, 1500, 1523)}


def test_the_seat_page_shows_the_readers_change_and_the_listed_ones(client: Client) -> None:
    g = table()
    rated_round(g.game, 1, CHANGES)
    page = client.get(f"/play/{g.tokens[0]}/").content.decode()
    assert ("Round 1 counted for the ratings. <span class=\"rating-moves\">Your rating: +31, "
            "now 1602 · Player1: -12, now 1480</span>") in page
    assert "now 1523" not in page  # p2 does not list theirs
    page = client.get(f"/play/{g.tokens[2]}/").content.decode()
    assert "Your rating: +23, now 1523" in page and "Player1: -12, now 1480" in page
    assert "now 1602" not in page  # p0 does not list theirs
    answer = client.get(f"/api/play/{g.tokens[0]}/").json()
    assert answer["rated_rounds"] == [{"round": 1, "counted": True, "ratings": [
        {"seat": 0, "change": 31, "rating": 1602, "provisional": False},
        {"seat": 1, "change": -12, "rating": 1480, "provisional": False}]}]
    # Someone else holds seat 1 now: Bert's change is no longer shown under its name.
    g.seats[1].email = "new@example.com"
    g.seats[1].save()
    assert "now 1480" not in client.get(f"/play/{g.tokens[0]}/").content.decode()


def round_end_note(g: GameWithLinks, seat: int = 0) -> Notification:
    [pk] = create([Spec(key=f"round_end:seat={g.seats[seat].pk}:r=1", kind="round_end",
                        to_email=f"p{seat}@example.com", game_id=g.game.pk,
                        seat_id=g.seats[seat].pk, params={"round": 1})])
    return Notification.objects.get(pk=pk)


def test_the_email_waits_for_the_rating_and_the_sweep_sends_it_on(
        clock: Any, django_capture_on_commit_callbacks: Any) -> None:
    g = table()
    RatingDue.objects.create(game=g.game)
    note = round_end_note(g)
    assert send.deliver(note.pk).status == "pending"  # the round is still to be rated
    note.refresh_from_db()
    assert (note.status, note.attempts) == ("pending", 0)
    # The game's next email to the same person waits behind it.
    [later] = create([Spec(key="turn:later", kind="turn", to_email="p0@example.com",
                           game_id=g.game.pk, seat_id=g.seats[0].pk, params={"version": 0})])
    assert send.deliver(later).status == "pending"
    # The sweep rates the game (nothing ended here to rate) and sends the round's end on.
    with django_capture_on_commit_callbacks(execute=True):
        assert rating_outbox.rate_due() == 1
    assert ("games.tasks.send_notification", [note.pk], {}) in queued_tasks()
    # Rated now: what the letter says, in the recipient's language.
    rated_round(g.game, 1, CHANGES)
    note.refresh_from_db()
    assert not rating_letters.rating_pending(note, timezone.now())
    part = rating_letters.rating_part(note)
    assert part is not None and part.heading == "Ratings after round 1"
    assert part.lines == ("Your rating: +31, now 1602", "Player1: -12, now 1480")
    with translation.override("it"):
        part = rating_letters.rating_part(note)
        assert part is not None and part.heading == "Rating dopo il round 1"


def test_a_rating_that_does_not_come_holds_the_email_ten_minutes_at_most(clock: Any) -> None:
    g = table()
    RatingDue.objects.create(game=g.game)
    note = round_end_note(g)
    assert rating_letters.rating_pending(note, timezone.now())
    clock.shift(rating_letters.RATING_WAIT + timedelta(seconds=1))
    assert not rating_letters.rating_pending(note, timezone.now())
    # Not rated, an unrated game: nothing waits.
    plain = make_game(players=3, seed=2)
    RatingDue.objects.create(game=plain.game)
    assert not rating_letters.rating_pending(round_end_note(plain), timezone.now())


def test_the_round_end_email_tells_the_change_once_the_round_is_rated(commit: Any) -> None:
    g = rated_game()
    with commit():
        game = play_on(g.refresh(), rounds=1)
        while int(game.snapshot.get("round") or 1) < 2:  # the winners' gold, then round 2
            state = game.state()
            game = move_for(game.pk, game.version, engine.legal_moves(state)[0])
    [change] = RatingChange.objects.filter(mailbox=mailbox_key_hash("p0@example.com"))
    difference, rating, provisional = moved(change)
    said = f"{difference:+d}, now {rating}" + (", provisional" if provisional else "")
    [letter] = [m for m in sent_to("p0@example.com") if "round 1 is over" in m.subject]
    assert f"Ratings after round 1:\n- Your rating: {said}\n" in letter.body
    assert re.search(r"<h2[^>]*>Ratings after round 1</h2>", letter.alternatives[0][0])
    assert len(mail.outbox) > 1
