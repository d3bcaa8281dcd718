"""At most one "your turn" email per seat and turn (issue 39, item 5): another seat changing
hands (taken over, handed to a bot or back, its player staying after all) sent the seat
to act its turn email again."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.game.core.game import Game, WhileOpen
from games.handover.services import opening, takeover
from games.mail.core.notifications import Notification
from games.moderation.services.bot_seats import hand_to_bot, hand_to_person
from tests.handover.test_takeover import pass_move
from tests.handover_support import open_row
from tests.moderation_support import make_moderator
from tests.support import make_game


def turn_emails_to(address: str) -> list[str]:
    return [str(m.subject) for m in mail.outbox
            if address in m.to and "your turn" in str(m.subject)]


@pytest.mark.django_db
def test_other_seats_changing_hands_send_the_seat_to_act_no_second_email(
        client: Client, commit: Any) -> None:
    g = make_game(players=4, seed=5)
    Game.objects.filter(pk=g.game.pk).update(while_seat_open=WhileOpen.WAIT)
    with commit():
        pass_move(client, g.page(0))  # seat 1's turn: one email
    assert len(turn_emails_to("p1@example.com")) == 1
    moderator = make_moderator()
    with commit():
        opening.open_seat(g.seats[2].pk)
        takeover.take_over(open_row(g.seats[2].pk).pk, takeover.Newcomer(
            name="Vera", email="vera@example.org", language="en"))
    with commit():
        hand_to_bot(g.seats[3].pk, moderator=moderator, reason="away")
        hand_to_person(g.seats[3].pk, moderator=moderator, reason="back")
    with commit():
        opening.open_seat(g.seats[0].pk)
        opening.stay(g.seats[0].pk)
    assert len(turn_emails_to("p1@example.com")) == 1
    assert Notification.objects.filter(kind="turn", seat=g.seats[1]).count() == 1


@pytest.mark.django_db
def test_the_seat_to_act_changing_hands_tells_the_newcomer_once(client: Client,
                                                                commit: Any) -> None:
    g = make_game(players=3, seed=5)
    Game.objects.filter(pk=g.game.pk).update(while_seat_open=WhileOpen.WAIT)
    with commit():
        pass_move(client, g.page(0))  # seat 1's turn
    with commit():
        opening.open_seat(g.seats[1].pk)
        opening.stay(g.seats[1].pk)  # the same player: told already
    assert len(turn_emails_to("p1@example.com")) == 1
    with commit():
        opening.open_seat(g.seats[1].pk)
        takeover.take_over(open_row(g.seats[1].pk).pk, takeover.Newcomer(
            name="Vera", email="vera@example.org", language="en"))
    assert len(turn_emails_to("vera@example.org")) == 1  # the newcomer's own, once
    assert len(turn_emails_to("p1@example.com")) == 1
