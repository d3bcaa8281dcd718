"""A moderator changes the holder of a seat that looks for a new player (its player left,
standby volunteers are offered it): given to a person, or back to its own player, it looks
no more; handed to a bot, it goes on looking (games.handover.services.opening.
on_holder_changed; docs/playing.md "When a player leaves")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import tasks
from games.clock.services import sweeps
from games.game.core.game import Game, WhileOpen
from games.handover.core.handover_rows import OpenSeat, SeatOffer
from games.seats.core.reliability import SeatTakeover
from games.seats.core.seat import Seat
from tests.handover.test_takeover import pass_move
from tests.handover_support import offer_link_to, sign_up
from tests.mail.test_one_turn_email import turn_emails_to
from tests.moderation_support import logged_in, make_moderator, post_action
from tests.support import GameWithLinks, make_game, own_link_emailed_to

pytestmark = pytest.mark.django_db

LOOKING = "This seat is looking for a new player"
GONE = "no longer needs a player"
OFFERED = "Take over this seat"


def a_seat_looking_for_a_player(client: Client, commit: Any, seat: int) -> GameWithLinks:
    """A game that waits for a newcomer (no bot meanwhile); Vera on standby; seat `seat`'s
    player leaves through their page, and Vera is offered the seat."""
    g = make_game(players=3, seed=5, timeout_policy="auto_pass")
    Game.objects.filter(pk=g.game.pk).update(while_seat_open=WhileOpen.WAIT)
    sign_up(client, commit, "vera@example.org", "Vera")
    with commit():
        assert client.post(g.page(seat) + "leave").status_code == 302
    assert LOOKING in client.get(g.page(seat)).content.decode()
    assert OFFERED in client.get(offer_link_to("vera@example.org")).content.decode()
    return g


def turn_emails_a_while_later(address: str, clock: Any, commit: Any) -> list[str]:
    """The turn emails `address` has once an email held for an open page has gone (the
    player looked at their page a moment ago: games.mail.core.seen_turns)."""
    clock.shift(timedelta(minutes=5))
    with commit():
        tasks.requeue_unsent()
    return turn_emails_to(address)


def test_an_open_seat_a_moderator_gives_to_someone_stops_looking(
        client: Client, commit: Any, clock: Any) -> None:
    g = a_seat_looking_for_a_player(client, commit, 0)
    clock.shift(timedelta(hours=25))  # seat 1's deadline passes: the game waits for it
    deadline = g.refresh().deadline_at
    assert deadline is not None
    with commit():
        sweeps.handle_deadlines([[g.game.pk, 0, deadline.isoformat()]])
    assert g.refresh().deadline_at is None
    moderator = logged_in(make_moderator())
    with commit():
        replaced = post_action(moderator, g.game, "replace", seat=g.seats[0].pk,
                               name="Nell", email="nell@x.org")
    assert replaced.status_code == 302
    # Nell's link comes by email; her seat looks for nobody, and she has a whole turn.
    own = own_link_emailed_to("nell@x.org")
    assert LOOKING not in client.get(own).content.decode()
    assert g.refresh().deadline_at == timezone.now() + timedelta(hours=24)
    # The volunteer can no longer take the seat from her.
    offer = offer_link_to("vera@example.org")
    assert GONE in client.get(offer).content.decode()
    with commit():
        client.post(offer, {"name": "Vera", "language": "en"})
    assert Seat.objects.get(pk=g.seats[0].pk).email == "nell@x.org"
    assert SeatOffer.objects.get(to_email="vera@example.org").state == SeatOffer.State.LOST
    assert OpenSeat.objects.get(seat_id=g.seats[0].pk).outcome == OpenSeat.Outcome.TAKEN
    # Her turns come to her by email like anyone's.
    with commit():
        pass_move(client, own)
        pass_move(client, g.page(1))
        pass_move(client, g.page(2))
    assert turn_emails_a_while_later("nell@x.org", clock, commit)


def test_an_open_seat_handed_to_a_bot_goes_on_looking_and_back_to_its_player_stops(
        client: Client, commit: Any, clock: Any) -> None:
    g = a_seat_looking_for_a_player(client, commit, 1)
    moderator = logged_in(make_moderator())
    with commit():
        assert post_action(moderator, g.game, "to_bot", seat=g.seats[1].pk).status_code == 302
    # A bot holds it while it looks: the volunteer may still take it.
    assert LOOKING in client.get(g.page(1)).content.decode()
    offer = offer_link_to("vera@example.org")
    assert OFFERED in client.get(offer).content.decode()
    with commit():
        assert post_action(moderator, g.game, "to_person", seat=g.seats[1].pk
                           ).status_code == 302
    # Its player is back, as if they had stayed: the seat is theirs and looks no more.
    assert LOOKING not in client.get(g.page(1)).content.decode()
    assert GONE in client.get(offer).content.decode()
    assert SeatOffer.objects.get(to_email="vera@example.org").state == SeatOffer.State.VOID
    assert OpenSeat.objects.get(seat_id=g.seats[1].pk).outcome == OpenSeat.Outcome.STAYED
    mail.outbox.clear()
    with commit():
        pass_move(client, g.page(0))  # seat 2's turn: its player is asked again
    assert turn_emails_a_while_later("p1@example.com", clock, commit)


@pytest.mark.parametrize(("address", "outcome"), [
    ("P0@Example.com", OpenSeat.Outcome.STAYED),         # the one who left: one person
    ("p0+again@example.com", OpenSeat.Outcome.TAKEN),    # another home, one mailbox's caps
])
def test_an_open_seat_given_to_the_one_who_left_closes_as_a_stay_and_to_another_as_a_takeover(
        client: Client, commit: Any, address: str, outcome: str) -> None:
    """Whom the moderator gave the seat to is told apart as people are (their mailbox key),
    not by the caps' coarser mailbox, which counts a +tag as the same mailbox."""
    g = a_seat_looking_for_a_player(client, commit, 0)
    moderator = logged_in(make_moderator())
    with commit():
        assert post_action(moderator, g.game, "replace", seat=g.seats[0].pk, name="Pia",
                           email=address).status_code == 302
    assert OpenSeat.objects.get(seat_id=g.seats[0].pk).outcome == outcome
    assert SeatTakeover.objects.filter(seat_id=g.seats[0].pk).exists() == (
        outcome == OpenSeat.Outcome.TAKEN)
