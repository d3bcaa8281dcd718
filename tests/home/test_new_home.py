"""/me/ for an address that plays nowhere yet: a link that confirms it (once a day per
mailbox), GET changes nothing, POST opens a new, empty home."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client

from games.home.services.forget import forget_player
from games.people.core.home_links import HomeLink
from games.people.core.new_homes import NewHome

pytestmark = pytest.mark.django_db
CONFIRM = re.compile(r"https?://[^\s\"<>]+?(/me/new/[A-Za-z0-9_-]{43}/)")


def confirm_path(address: str) -> str:
    for message in reversed(mail.outbox):
        if message.to == [address]:
            found = CONFIRM.search(str(message.body))
            if found:
                return found.group(1)
    raise AssertionError(f"no confirmation email to {address}")


def test_a_stranger_confirms_the_address_and_gets_an_empty_home(client: Client,
                                                               commit: Any) -> None:
    with commit():
        client.post("/me/", {"email": "New.Comer@example.org"})
    path = confirm_path("new.comer@example.org")  # kept as a home keeps it
    assert not HomeLink.objects.exists()  # nothing is kept but the request
    page = client.get(path)
    assert page.status_code == 200 and "Confirm and open my home" in page.content.decode()
    assert not HomeLink.objects.exists()  # GET changes nothing
    opened = client.post(path)
    assert opened.status_code == 302 and opened["Location"].startswith("/me/")
    home = client.get(opened["Location"]).content.decode()
    assert "No game is waiting for your move." in home and "Find me a table" in home
    assert HomeLink.objects.get().address == "new.comer@example.org"
    assert not NewHome.objects.exists()
    assert client.post(path).status_code == 404  # used


def test_at_most_one_confirmation_a_day_per_mailbox(client: Client, commit: Any) -> None:
    with time_machine.travel("2027-02-01 08:00Z", tick=False) as traveller:
        with commit():
            for spelling in ("ann@example.org", "ANN@example.org", "ann+x@example.org"):
                client.post("/me/", {"email": spelling})
        assert len(mail.outbox) == 1
        traveller.shift(timedelta(hours=25))
        with commit():
            client.post("/me/", {"email": "ann@example.org"})
        assert len(mail.outbox) == 2


def test_a_forgotten_address_gets_no_confirmation(client: Client, commit: Any) -> None:
    forget_player("gone@example.org")
    with commit():
        answer = client.post("/me/", {"email": "gone@example.org"})
    assert answer.status_code == 302 and not mail.outbox


def test_a_wrong_or_old_confirmation_link_is_a_404(client: Client, commit: Any) -> None:
    assert client.get("/me/new/" + "x" * 43 + "/").status_code == 404
    with time_machine.travel("2027-02-01 08:00Z", tick=False) as traveller:
        with commit():
            client.post("/me/", {"email": "late@example.org"})
        path = confirm_path("late@example.org")
        traveller.shift(timedelta(days=8))
        assert client.post(path).status_code == 404
    assert not HomeLink.objects.exists()
