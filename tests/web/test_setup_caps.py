"""The setup page's caps cannot be walked around: they count by mailbox (`Ann+1@` is
`ann@`), and are checked when a setup is asked for and again when its host confirms it,
the only moment invitations leave (a setup nobody confirmed counts for nothing:
tests/web/test_unconfirmed_setups.py); an invitation's subject carries nothing the host
wrote."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.people.core.mailboxes import mailbox
from games.setup.core.host_limits import HostBlock
from games.setup.services import game_setup
from tests.setup_support import confirm_path, set_up

pytestmark = pytest.mark.django_db

SPAM = "Spam 0 buy cheap pills at pills.example"
VICTIM = "victim@example.net"


FILLERS = itertools.count()


def form(host: str, emails: list[str], name: str = SPAM) -> dict[str, Any]:
    """The setup form; the base game's third player is someone else if need be."""
    emails = emails + [f"filler{next(FILLERS)}@example.com" for _ in range(3 - len(emails))]
    data: dict[str, Any] = {"name": name, "ruleset": "base", "hours_per_move": 24,
                            "seating": "order", "start": "accepted", "time_zone": "UTC",
                            "language": "en", "host_email": host}
    for i, email in enumerate(emails):
        data[f"player_{i}_name"] = f"{name} {i}"
        data[f"player_{i}_email"] = email
    return data


def in_victims_mailbox() -> list[Any]:
    return [m for m in mail.outbox if mailbox(m.to[0]) == VICTIM]


@pytest.mark.parametrize(("address", "box"), [
    ("Victim+1@Example.NET", VICTIM),
    ("VICTIM+spam+more@example.net", VICTIM),
    ("v.i.c.t.i.m+x@googlemail.com", "victim@gmail.com"),
    ("Vic.Tim@GMAIL.com", "victim@gmail.com"),
    ("vic.tim@example.net", "vic.tim@example.net"),  # a dot matters outside Gmail
    ("vic-tim@example.net", "vic-tim@example.net"),
    ("ann@BÜCHER.de", "ann@xn--bcher-kva.de"),
])
def test_an_address_folds_to_the_mailbox_it_reaches(address: str, box: str) -> None:
    assert mailbox(address) == box


def test_eighty_tagged_invitations_to_one_mailbox_end_at_the_cap(commit: Any) -> None:
    """Eight setups from two client addresses, each inviting the victim under another
    `+tag` (and nine others), all posted before any is confirmed, then all confirmed:
    the victim's mailbox gets the day's five invitations, no more."""
    clients = [Client(REMOTE_ADDR="10.0.0.1"), Client(REMOTE_ADDR="10.0.0.2")]
    answers = []
    for k in range(8):
        emails = [f"Victim+{k}@example.net"] + [f"p{k}-{i}@example.org" for i in range(9)]
        with commit():
            answers.append(clients[k % 2].post("/new/", form(f"host{k}@example.org", emails)))
    assert [a.status_code for a in answers] == [302] * 8  # nothing confirmed: nothing counts
    confirmed = []
    for k in range(8):
        with commit():
            confirmed.append(clients[k % 2].post(confirm_path(f"host{k}@example.org")))
    assert [a.status_code for a in confirmed] == [200] * 5 + [400] * 3
    assert "Victim+5@example.net has been invited as often today" in (
        confirmed[5].content.decode())
    assert len(in_victims_mailbox()) == 5
    assert Game.objects.filter(host_confirmed_at__isnull=False).count() == 5
    # Nothing the host wrote is in an invitation's subject.
    invitations = [m for m in mail.outbox if "invited" in m.subject]
    assert len(invitations) == 50
    assert {m.subject for m in invitations} == {"You are invited to play Saboteur by email"}
    # The body shows the game's name as the host's words.
    assert f"in a game its host named “{SPAM}”" in invitations[0].body


def test_one_setup_cannot_invite_one_mailbox_twice(client: Client) -> None:
    emails = [f"victim+{n}@example.net" for n in range(10)]
    refused = client.post("/new/", form("host@example.org", emails))
    assert refused.status_code == 400
    assert "Each player needs a different email address." in refused.content.decode()
    assert not Game.objects.exists() and not mail.outbox


@override_settings(SETUP_INVITATIONS_PER_RECIPIENT_PER_DAY=1)
def test_the_caps_are_checked_again_when_a_setup_is_confirmed(clock: Any,
                                                              commit: Any) -> None:
    first, second = (Client(REMOTE_ADDR=f"10.0.1.{n}") for n in range(2))
    with commit():
        assert first.post("/new/", form("a@example.org", [VICTIM, "x@example.org"])
                          ).status_code == 302
        assert second.post("/new/", form("b@example.org", ["VICTIM+2@example.net"])
                           ).status_code == 302
    with commit():
        assert second.post(confirm_path("b@example.org")).status_code == 200
    # Confirming the first now would be a second invitation within a day: refused.
    with commit():
        late = first.post(confirm_path("a@example.org"))
    assert late.status_code == 400
    assert f"{VICTIM} has been invited as often today" in late.content.decode()
    assert Game.objects.get(host_email="a@example.org").host_confirmed_at is None
    assert [m.to for m in in_victims_mailbox()] == [["VICTIM+2@example.net"]]
    # A day later the window has moved on: the same confirmation link goes through.
    clock.shift(timedelta(hours=23))
    with commit():
        assert first.post(confirm_path("a@example.org")).status_code == 400
    clock.shift(timedelta(hours=1, minutes=1))
    assert first.get(confirm_path("a@example.org")).status_code == 404  # it expired


def test_a_host_is_one_mailbox_however_spelled(commit: Any) -> None:
    answers = []
    for k in range(6):
        client = Client(REMOTE_ADDR=f"10.0.2.{k}")
        with commit():
            answers.append(client.post(
                "/new/", form(f"Host+{k}@Example.org", [f"p{k}@example.net"])))
        if answers[-1].status_code == 302:
            with commit():
                assert client.post(confirm_path(f"Host+{k}@Example.org")).status_code == 200
    assert [a.status_code for a in answers] == [302] * 5 + [400]
    assert "as many games today" in answers[5].content.decode()


@override_settings(SETUP_INVITATIONS_PER_HOST_PER_DAY=4)
def test_a_hosts_invitation_cap_counts_the_invitations_it_sent(commit: Any) -> None:
    client = Client(REMOTE_ADDR="10.0.3.1")
    with commit():
        assert client.post("/new/", form(
            "host@example.org", [f"p{n}@example.net" for n in range(3)])).status_code == 302
    with commit():
        assert client.post(confirm_path("host@example.org")).status_code == 200
    over = Client(REMOTE_ADDR="10.0.3.2").post("/new/", form(
        "HOST+again@example.org", ["q0@example.net", "q1@example.net"]))
    assert over.status_code == 400
    assert "as many players today" in over.content.decode()


def test_operator_invitations_count_against_a_recipients_cap(client: Client,
                                                             commit: Any) -> None:
    for n in range(5):
        with commit():
            game_setup.create_game(name=f"Op {n}", players=[
                game_setup.PlayerSpec(name="V", email=f"Victim+op{n}@example.net"),
                game_setup.PlayerSpec(name="W", email=f"w{n}@example.net"),
                game_setup.PlayerSpec(name="X", email=f"x{n}@example.net")])
    capped = client.post("/new/", form("other@example.org", [VICTIM, "y@example.net"]))
    assert capped.status_code == 400
    assert f"{VICTIM} has been invited as often today" in capped.content.decode()


def test_an_unsubscribed_mailbox_refuses_the_host_however_either_is_spelled(
        client: Client, commit: Any) -> None:
    set_up(client, form("host@example.org", [VICTIM, "x@example.org"], name="Friday"),
           commit, host="host@example.org")
    invitation = next(m for m in mail.outbox if m.to == [VICTIM])
    unsubscribe = next(line for line in invitation.body.splitlines()
                       if "/mail/unsubscribe/" in line).split("http://127.0.0.1:8000")[-1]
    assert client.post(unsubscribe.strip()).status_code == 200
    assert HostBlock.objects.count() == 1
    refused = Client(REMOTE_ADDR="10.0.4.1").post("/new/", form(
        "Host+2@example.org", ["Victim+x@example.net", "y@example.org"], name="Again"))
    assert refused.status_code == 400
    assert "Victim+x@example.net does not want invitations from you" in (
        refused.content.decode())
    assert Notification.objects.filter(to_email="Victim+x@example.net").count() == 0
