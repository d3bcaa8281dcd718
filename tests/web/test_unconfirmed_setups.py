"""A setup nobody confirmed locks nobody out (issue 34, item 4): it counts against no
cap, its host's mailbox gets at most two confirmation emails a day for setups it did not
confirm (the others are listed on those emails' pages), and it expires after a day (its
link opens nothing; the beat deletes it)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.game.core.game import Game
from games.seats.core.invitations import Invitation
from games.seats.core.seat import Seat
from games.setup.services import web_setup
from tests.setup_support import confirm_path
from tests.web.test_setup_caps import form

pytestmark = pytest.mark.django_db

REAL_HOST = "realhost@rh.test"
VICTIM = "victim3@t3.test"


def confirmations_to(address: str) -> list[Any]:
    return [m for m in mail.outbox if m.to == [address] and "Confirm" in m.subject]


def test_five_setups_naming_a_host_leave_its_own_setup_to_it(commit: Any) -> None:
    """The attack of the issue: five setups naming someone else's address as host, never
    confirmed. That address gets two confirmation emails, no more, and its own setup goes
    through: the page either email opens lists it, and it confirms it from there."""
    attacker = Client(REMOTE_ADDR="10.9.0.1")
    for n in range(5):
        with commit():
            answer = attacker.post("/new/", form(REAL_HOST, [f"x{n}@example.org"],
                                                 name=f"Spam {n}"))
        assert answer.status_code == 302
    assert len(confirmations_to(REAL_HOST)) == 2
    host = Client(REMOTE_ADDR="10.9.0.2")
    with commit():
        own = host.post("/new/", form(REAL_HOST, ["friend@example.org"], name="Friday"),
                        follow=True)
    assert "no new one goes" in own.content.decode()
    assert len(confirmations_to(REAL_HOST)) == 2
    page = host.get(confirm_path(REAL_HOST)).content.decode()
    assert "Friday" in page and "Other games waiting for this address" in page
    friday = Game.objects.get(name="Friday")
    path = next(path for game, path in web_setup.waiting_beside(
        Game.objects.get(name="Spam 1")) if game == friday)
    assert f'href="{path}"' in page
    with commit():
        assert host.post(path).status_code == 200
    invited = [m.to[0] for m in mail.outbox if "invited" in m.subject]
    assert "friend@example.org" in invited and len(invited) == 3  # Friday's players only


def test_setups_nobody_confirmed_take_nothing_from_their_players(commit: Any) -> None:
    """Five setups naming the victim as a player, never confirmed: a real host still
    invites the victim (the caps count only confirmed setups)."""
    for n in range(5):
        with commit():
            assert Client(REMOTE_ADDR=f"10.9.1.{n}").post("/new/", form(
                f"fake{n}@example.org", [VICTIM])).status_code == 302
    host = Client(REMOTE_ADDR="10.9.1.9")
    with commit():
        assert host.post("/new/", form("host@example.org", [VICTIM])).status_code == 302
    with commit():
        assert host.post(confirm_path("host@example.org")).status_code == 200
    assert len([m for m in mail.outbox if m.to == [VICTIM]]) == 1


def test_a_setup_not_confirmed_in_a_day_expires(client: Client, clock: Any,
                                                commit: Any) -> None:
    with commit():
        assert client.post("/new/", form("late@example.org", ["p@example.org"])
                           ).status_code == 302
        assert client.post("/new/", form("kept@example.org", ["q@example.org"])
                           ).status_code == 302
    late, kept = confirm_path("late@example.org"), confirm_path("kept@example.org")
    with commit():
        assert client.post(kept).status_code == 200
    clock.shift(timedelta(hours=23, minutes=59))
    assert client.get(late).status_code == 200
    clock.shift(timedelta(minutes=1))
    assert client.get(late).status_code == 404  # at read time: the link opens nothing
    assert client.get(late.replace("/confirm/", "/host/")).status_code == 404
    assert client.get(kept.replace("/confirm/", "/host/")).status_code == 200
    assert web_setup.expire_unconfirmed() == 1  # the beat's sweep
    assert not Game.objects.filter(host_email="late@example.org").exists()
    assert not Seat.objects.filter(email="p@example.org").exists()
    assert not Invitation.objects.filter(waiting=True).exists()
    assert Game.objects.filter(host_email="kept@example.org").exists()
