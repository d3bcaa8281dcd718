"""A game found at an open table reads as one: named in each reader's language ("Open
table 7", "Tavolo aperto 7", "Offener Tisch 7") on every page, email, API answer, the
home and the record, stored in English for the admin; its emails and pages say its
players found it together (no host, nothing to accept); its invitations and every offer
of its seats say whether it is rated, as every other game's do."""

from __future__ import annotations

import html
import json
import re
from typing import Any, cast

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client

from games.game.core.game import Game
from games.people.core.home_links import home_link
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.setup.core.player_defaults import remember_preferences
from games.tables.core.table_rows import OpenTable
from tests.handover_support import offer_link_to, sign_up
from tests.support import make_game, token_of

pytestmark = pytest.mark.django_db
WISH = {"ruleset": "base", "players": 3, "hours_per_move": 24, "language": "en",
        "rated": True, "bots_fill": False}
PEOPLE = {"ann@example.org": ("en", "UTC"), "gia@example.org": ("it", "Europe/Rome"),
          "udo@example.org": ("de", "Europe/Berlin")}


def flat(text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def letters_to(address: str) -> list[tuple[str, str, str]]:
    """Every email to `address`: its subject, text and HTML as a reader reads them."""
    return [(str(m.subject), flat(str(m.body)),
             flat(str(cast(EmailMultiAlternatives, m).alternatives[0][0])))
            for m in mail.outbox if m.to == [address]]


def found_together(client: Client, commit: Any) -> tuple[Game, dict[str, str]]:
    """Three homes (English, Italian, German) fill a rated table of three."""
    homes = {}
    for address, (language, zone) in PEOPLE.items():
        remember_preferences(address, language, zone)
        homes[address] = token_of(home_link(address))
    mail.outbox.clear()
    with commit():
        for token in homes.values():
            assert client.post(f"/api/me/{token}/tables", json.dumps(WISH),
                               content_type="application/json").status_code == 200
    table = OpenTable.objects.get()
    assert table.status == OpenTable.Status.STARTED and table.game is not None
    return table.game, homes


def seat_page(client: Client, game: Game, address: str) -> str:
    """The seat page's text as its player reads it."""
    seat = Seat.objects.get(game=game, email=address)
    return flat(client.get(f"/play/{token_of(link_for(seat))}/").content.decode())


def test_an_open_tables_game_is_named_in_each_readers_language(client: Client,
                                                               commit: Any) -> None:
    game, homes = found_together(client, commit)
    n = OpenTable.objects.get().pk
    assert game.name == f"Open table {n}"  # the admin's form
    names = {"ann@example.org": f"Open table {n}", "gia@example.org": f"Tavolo aperto {n}",
             "udo@example.org": f"Offener Tisch {n}"}
    for address, name in names.items():
        seat = Seat.objects.get(game=game, email=address)
        assert f"<h1>{name}</h1>" in client.get(
            f"/play/{token_of(link_for(seat))}/").content.decode()
        for subject, text, page in letters_to(address):
            assert name in f"{subject} {text}" and name in page, (address, subject)
        home = flat(client.get(f"/me/{homes[address]}/").content.decode())
        assert name in home
        [listed] = client.get(f"/api/me/{homes[address]}/").json()["games"]
        assert listed["name"] == name
    # The seat's record (once the game is over) and its replay name it the same way.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    gia = token_of(link_for(Seat.objects.get(game=game, email="gia@example.org")))
    assert client.get(f"/api/play/{gia}/record").json()["name"] == f"Tavolo aperto {n}"
    assert f"Tavolo aperto {n}" in flat(client.get(f"/play/{gia}/replay/").content.decode())


def test_its_emails_and_pages_say_it_was_found_together_and_whether_it_is_rated(
        client: Client, commit: Any) -> None:
    game, _homes = found_together(client, commit)
    n = OpenTable.objects.get().pk
    [(_subject, text, page)] = [letter for letter in letters_to("ann@example.org")
                                if "Open table" not in letter[0]]
    for body in (text, page):
        assert (f"You and the other players found this game of Saboteur by email together, "
                f"at an open table: “Open table {n}”.") in body
        assert "How the game goes" in body and "This game is rated" in body
        assert "host" not in body and "accepting" not in body.lower()
        assert "Accept" not in body
    # The seat email (its subject names no game: a turn email's does).
    [(_subject, text, page)] = [letter for letter in letters_to("gia@example.org")
                                if "Tavolo aperto" not in letter[0]]
    for body in (text, page):
        assert "Tu e gli altri giocatori avete trovato insieme" in body
        assert "Questa partita è valida per il rating" in body
        assert "organizza" not in body and "accettare" not in body
    ann = seat_page(client, game, "ann@example.org")
    assert "You and the other players found this game together at an open table." in ann
    assert "meanwhile a bot plays it" in ann and "host" not in ann


def test_an_offer_of_its_seat_says_how_it_was_found_and_that_it_is_rated(
        client: Client, commit: Any) -> None:
    sign_up(client, commit, "vera@example.org", "Vera")
    game, _homes = found_together(client, commit)
    ann = token_of(link_for(Seat.objects.get(game=game, email="ann@example.org")))
    with commit():
        assert client.post(f"/api/play/{ann}/leave").status_code == 200
    offer = offer_link_to("vera@example.org")
    [(_subject, text, page)] = [letter for letter in letters_to("vera@example.org")
                                if "free" in letter[0]]
    for body in (text, page):
        assert "Rated: its rounds count for the players' ratings" in body
    shown = flat(client.get(offer).content.decode())
    assert (f"A seat in “Open table {OpenTable.objects.get().pk}”, a game its players found "
            "together "
            "at an open table, needs a new player:") in shown
    assert "Rated: its rounds count for the players' ratings" in shown and "host" not in shown


def test_every_invitation_and_offer_of_a_hosts_game_says_whether_it_is_rated(
        client: Client, commit: Any) -> None:
    mail.outbox.clear()
    with commit():
        g = make_game(players=3, seed=1, start=False, invite=True)
    [(_subject, text, page)] = letters_to("p0@example.com")
    for body in (text, page):
        assert "This game is not rated: its rounds do not count for the players' ratings." \
            in body
        assert "a game its host named “Test game”" in body
    sign_up(client, commit, "vera@example.org", "Vera")
    with commit():
        rated = make_game(players=3, seed=2, start=True, rated=True, invite=True)
        assert client.post(rated.api(1) + "leave").status_code == 200
    [(_subject, text, page)] = [letter for letter in letters_to("vera@example.org")
                                if "free" in letter[0]]
    assert "Rated: its rounds count for the players' ratings" in text
    assert g.game.pk != rated.game.pk
