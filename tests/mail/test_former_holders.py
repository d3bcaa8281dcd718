"""A seat that changed hands (HolderChanged, games.mail.services.former_holders): an email
planned for its former holder and not sent yet (held for their quiet hours) never reaches
them, for it would carry the seat's link and reply address, the new holder's now; nor
does one planned from the seat as read before the change (caught when sent)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import tasks
from games.handover.services import opening, takeover
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.moderation.services.seats import replace_player
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from tests.handover.test_takeover import pass_move
from tests.handover_support import open_row
from tests.moderation_support import make_moderator
from tests.support import GameWithLinks, make_game

pytestmark = pytest.mark.django_db
FORMER = "p1@example.com"


def letters_to(address: str) -> list[str]:
    return [str(m.body) for m in mail.outbox if address in m.to]


def sent_unsent(commit: Any) -> None:
    """The beat's requeue_unsent, and the worker sending what it queued."""
    with commit():
        tasks.requeue_unsent()


def held_turn_email(client: Client, commit: Any, **game: Any) -> GameWithLinks:
    """Seat 2's turn, its email held until the end of its player's quiet hours (08-12
    UTC; the clock stands at 09:00)."""
    g = make_game(players=3, seed=5, **game)
    Seat.objects.filter(pk=g.seats[1].pk).update(quiet_from=8, quiet_to=12)
    with commit():
        pass_move(client, g.page(0))
    held = Notification.objects.get(kind=Notification.Kind.TURN, seat=g.seats[1])
    assert held.status == Notification.Status.PENDING and held.to_email == FORMER
    assert held.not_before is not None
    mail.outbox.clear()
    return g


def the_seats_link(g: GameWithLinks) -> str:
    found = re.search(r"/play/[A-Za-z0-9_-]{43}/", link_for(Seat.objects.get(pk=g.seats[1].pk)))
    assert found is not None
    return found.group(0)


def test_a_moderators_hand_over_keeps_the_former_players_held_email_from_them(
        client: Client, commit: Any, clock: Any) -> None:
    g = held_turn_email(client, commit)
    with commit():
        replace_player(g.seats[1].pk, name="Nell", email="nell@x.org",
                       moderator=make_moderator(), reason="asked to leave")
    # Dropped at the change (the moderators' outbox says so), not when it would go.
    note = Notification.objects.get(kind=Notification.Kind.TURN, to_email=FORMER)
    assert (note.status, note.last_error) == (Notification.Status.SKIPPED,
                                               "the seat changed hands")
    clock.shift(timedelta(hours=4))  # the quiet hours are over
    sent_unsent(commit)
    assert letters_to(FORMER) == []
    assert any(the_seats_link(g) in body for body in letters_to("nell@x.org"))


def test_a_takeover_keeps_the_leavers_held_email_from_them(
        client: Client, commit: Any, clock: Any) -> None:
    g = held_turn_email(client, commit, while_seat_open="wait")
    with commit():
        opening.open_seat(g.seats[1].pk)
        takeover.take_over(open_row(g.seats[1].pk).pk, takeover.Newcomer(
            name="Nell", email="nell@x.org", language="en"))
    note = Notification.objects.get(kind=Notification.Kind.TURN, to_email=FORMER)
    assert note.status == Notification.Status.SKIPPED
    clock.shift(timedelta(hours=4))
    sent_unsent(commit)
    assert letters_to(FORMER) == []
    link = the_seats_link(g)
    assert any(link in body for body in letters_to("nell@x.org"))
    assert all(link not in str(m.body) for m in mail.outbox if "nell@x.org" not in m.to)


def test_an_email_planned_from_the_seat_as_it_was_before_the_change_is_not_sent(
        client: Client, commit: Any) -> None:
    """The beat plans a move's emails from seats it read without the game's lock: a row
    for the former holder may be written just after the change committed."""
    g = make_game(players=3, seed=5)
    with commit():
        pass_move(client, g.page(0))  # seat 2's turn
    as_read = Seat.objects.get(pk=g.seats[1].pk)
    with commit():
        replace_player(g.seats[1].pk, name="Nell", email="nell@x.org",
                       moderator=make_moderator(), reason="asked to leave")
    mail.outbox.clear()
    with commit():
        plan.queue([plan.Spec(key=f"turn:seat={as_read.pk}:late", kind=Notification.Kind.TURN,
                              to_email=as_read.email, game_id=g.game.pk, seat_id=as_read.pk,
                              params={"version": g.refresh().version})])
    assert letters_to(FORMER) == []
    note = Notification.objects.get(key=f"turn:seat={as_read.pk}:late")
    assert note.last_error == "the seat changed hands"
