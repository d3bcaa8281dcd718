"""Each player's language and time zone at setup: an Italian and a German player at one
table each get their own (the setup page; creategame in tests/commands)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.seats.core.seat import Seat
from tests.setup_support import set_up
from tests.support import own_link_emailed_to

pytestmark = pytest.mark.django_db

GIA, UTE, SAM = "gia@example.it", "ute@example.de", "sam@example.org"


def table(**rows: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "Tavola", "ruleset": "base", "hours_per_move": 24,
                            "seating": "order", "start": "now", "time_zone": "UTC",
                            "language": "en"}
    for i, (name, email, language, zone) in enumerate([
            ("Gia", GIA, "it", "Europe/Rome"), ("Ute", UTE, "de", "America/New_York"),
            ("Sam", SAM, "", "")]):
        data.update({f"player_{i}_name": name, f"player_{i}_email": email,
                     f"player_{i}_language": language, f"player_{i}_time_zone": zone})
    data.update(rows)
    return data


def letters_to(address: str) -> list[Any]:
    return [m for m in mail.outbox if m.to == [address]]


def test_an_italian_and_a_german_seat_each_get_their_language_and_time_zone(
        client: Client, commit: Any) -> None:
    page = client.get("/new/").content.decode()
    assert 'name="player_0_language"' in page and 'list="id_time_zone_zones"' in page
    set_up(client, table(), commit)
    seats = {s.email: s for s in Seat.objects.all()}
    assert (seats[GIA].language, seats[GIA].time_zone) == ("it", "Europe/Rome")
    assert (seats[UTE].language, seats[UTE].time_zone) == ("de", "America/New_York")
    # Nothing chosen for the seat: the game's choice.
    assert (seats[SAM].language, seats[SAM].time_zone) == ("en", "UTC")
    subjects = {a: [m.subject for m in letters_to(a)] for a in (GIA, UTE, SAM)}
    assert "Un invito a giocare a Saboteur per email" in subjects[GIA]
    assert "Du bist eingeladen, Saboteur per E-Mail zu spielen" in subjects[UTE]
    assert "You are invited to play Saboteur by email" in subjects[SAM]
    # Deadlines in each seat's own time zone: the first turn's email, and the page.
    turn = [m for m in letters_to(GIA) if "(Europe/Rome)" in str(m.body)]
    assert turn, [m.subject for m in letters_to(GIA)]
    ute_page = client.get(own_link_emailed_to(UTE)).content.decode()
    assert "(America/New_York)" in ute_page and "(Europe/Rome)" not in ute_page


def test_a_wrong_time_zone_for_one_player_is_an_error_on_the_form(
        client: Client, commit: Any) -> None:
    with commit():
        answer = client.post("/new/", {"host_email": "host@example.org",
                                       **table(player_1_time_zone="Mars/Olympus")})
    assert answer.status_code == 400
    assert "Unknown time zone Mars/Olympus." in answer.content.decode()
    assert not Seat.objects.exists() and not mail.outbox
