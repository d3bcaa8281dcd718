"""A game's start alerts the devices that chose "game started or ended" (issue 47): a push
of its own (a start has no email), through the stand-in push service; none to a device
without that kind, none to a seat whose emails are off."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.game.core.choices import EmailMode
from games.push.core.push_rows import PushAlert
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.push.standin import StandIn
from tests.push.support import turn_on_alerts


@pytest.mark.django_db
def test_a_game_s_start_pushes_to_the_devices_that_chose_it(
        client: Client, commit: Any, clock: Any, standin: StandIn) -> None:
    _, wants = turn_on_alerts(client, "ann@example.org", standin, kinds=["start_end"])
    turn_on_alerts(client, "bob@example.org", standin, kinds=["turn"], name="Bob's")
    turn_on_alerts(client, "cy@example.org", standin, kinds=["start_end"], name="Cy's")
    players = [game_setup.PlayerSpec(name=name, email=f"{email}@example.org")
               for name, email in (("Ann", "ann"), ("Bob", "bob"), ("Cy", "cy"))]
    with commit():
        game = game_setup.create_game(name="Start game", players=players, seed=5,
                                      invite=False).game
        Seat.objects.filter(game=game, email="cy@example.org").update(
            email_mode=EmailMode.LINKS_ONLY)
        game_setup.start_game(game.pk)
    [push] = standin.received
    assert push.problem == "" and push.path == wants.endpoint.removeprefix(standin.origin)
    assert push.payload is not None
    assert (push.payload["title"], push.payload["body"]) == ("Start game",
                                                             "The game has started.")
    assert push.urgency == "normal"  # not a turn
    alert = PushAlert.objects.get()
    assert (alert.kind, alert.game_id, alert.status) == ("start_end", game.pk, "sent")
