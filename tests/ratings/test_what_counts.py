"""What counts for the ratings (games.ratings.services.qualifying): a rated round counts only
between distinct people who each took their seat from their own address. A round that does not
count moves no rating (nobody's, not a side's) and the game's pages say so."""

from __future__ import annotations

import json
import secrets
from io import StringIO
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from games.game.core.game import Game
from games.home.services.forget import forget_player
from games.moderation import services as moderation
from games.people.core.home_links import home_link
from games.people.core.mailboxes import mailbox_key_hash
from games.ratings.core.rating_rows import PlayerRating, RatedRound, SideRating
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from games.tables.core.table_rows import OpenTable
from tests.moderation_support import make_moderator
from tests.ratings.support import play_on, rated_game, seed_with_a_saboteur
from tests.support import token_of

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

MEMBERS = ["ann@example.org", "bob@example.org", "cy@example.org", "dan@example.org"]
# Two ways of writing ann@example.org's mailbox: its key in ASCII capitals, and a +tag
# (another key, the same mailbox: the mail of both goes to one person).
ANNS_OTHER_SPELLINGS = ["ANN@Example.ORG", "ann+again@example.org"]


def open_table_game(client: Client, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A rated open table of MEMBERS, started when the last one found it (its deal has a
    saboteur in the first round)."""
    seed = seed_with_a_saboteur(len(MEMBERS))
    monkeypatch.setattr(game_setup, "secrets", SimpleNamespace(
        randbits=lambda _bits: seed, SystemRandom=secrets.SystemRandom))
    wish = {"ruleset": "base", "players": len(MEMBERS), "rated": True}
    for address in MEMBERS:
        answer = client.post(f"/api/me/{token_of(home_link(address))}/tables",
                             data=json.dumps(wish), content_type="application/json")
        assert answer.status_code == 200
    game = OpenTable.objects.get().game
    assert game is not None and game.rated
    return game


def seat_of(game: Game, address: str) -> Seat:
    return next(seat for seat in game.seats.all() if seat.email == address)


def nothing_rated() -> bool:
    return not PlayerRating.objects.exists() and not SideRating.objects.exists()


def verdicts(game: Game) -> list[tuple[int, bool, str]]:
    return [(row.round, row.result["counted"], row.result["why"])
            for row in RatedRound.objects.filter(game=game).order_by("round")]


def page_of(client: Client, seat: Seat) -> str:
    return client.get(f"/play/{token_of(link_for(seat))}/").content.decode()


@pytest.mark.parametrize("spelling", ANNS_OTHER_SPELLINGS)
def test_an_open_table_where_one_mailbox_plays_two_seats_rates_nobody(
        client: Client, commit: Any, monkeypatch: pytest.MonkeyPatch, spelling: str) -> None:
    game = open_table_game(client, monkeypatch)
    ann, bob = seat_of(game, "ann@example.org"), seat_of(game, "bob@example.org")
    mod = make_moderator()
    with commit():
        game = play_on(game, rounds=1, moves=4)
        # Ann's seat goes to Zed; then Bob's to Ann again, under another spelling: in this
        # round Ann has held two seats, and saw both hands.
        moderation.replace_player(ann.pk, name="Zed", email="zed@example.org", moderator=mod,
                                  reason="Ann left")
        moderation.replace_player(bob.pk, name="Ann again", email=spelling, moderator=mod,
                                  reason="Bob left")
        game = play_on(game, rounds=1)
    assert verdicts(game) == [(1, False, "same_mailbox")]
    assert nothing_rated()
    page = page_of(client, seat_of(game, "cy@example.org"))
    assert ("Round 1 did not count for the ratings: two of its seats were played from one "
            "mailbox.") in page


def test_a_hosts_game_where_one_mailbox_plays_two_seats_rates_nobody(
        client: Client, commit: Any) -> None:
    # The setup refuses one mailbox in two seats (the form, and creategame alike) ...
    three = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"),
             ("Ann too", "Ann+2@Example.org")]
    form = {"name": "Rated", "ruleset": "base", "hours_per_move": 24, "seating": "order",
            "start": "accepted", "time_zone": "UTC", "language": "en", "rated": "on",
            "host_email": "host@example.org"}
    for n, (name, address) in enumerate(three):
        form.update({f"player_{n}_name": name, f"player_{n}_email": address})
    refused = client.post("/new/", form)
    assert refused.status_code == 400
    assert "Each player needs a different email address." in refused.content.decode()
    players = [f"--player={name} <{address}>" for name, address in three]
    with pytest.raises(CommandError, match="Each player needs a different email address"):
        call_command("creategame", "--name", "Rated", "--rated", *players, stdout=StringIO())
    assert not Game.objects.exists()
    # ... and a seat that changes hands during a round cannot make one either.
    g = rated_game(seed=1)
    mod = make_moderator()
    with commit():
        game = play_on(g.refresh(), rounds=1, moves=4)
        moderation.replace_player(g.seats[0].pk, name="Zed", email="zed@example.org",
                                  moderator=mod, reason="p0 left")
        moderation.replace_player(g.seats[2].pk, name="P0", email="P0+back@Example.com",
                                  moderator=mod, reason="p2 left")
        game = play_on(game, rounds=1)
    assert verdicts(game) == [(1, False, "same_mailbox")]
    assert nothing_rated()
    answer = client.get(f"/api/play/{g.tokens[1]}/").json()
    assert answer["rated"] is True
    assert answer["rated_rounds"] == [{
        "round": 1, "counted": False, "why": "same_mailbox",
        "reason": "two of its seats were played from one mailbox"}]


def test_a_seat_counts_once_its_player_took_it_from_their_own_address(
        client: Client, commit: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Seated by the server: joining the table took the home link, which only the
    # address's mail carries, so a member who then plays nothing loses their own rating.
    table = open_table_game(client, monkeypatch)
    with commit():
        table = play_on(table, rounds=1, absent={seat_of(table, "ann@example.org").number})
    assert verdicts(table) == [(1, True, "")]
    assert PlayerRating.objects.filter(mailbox=mailbox_key_hash("ann@example.org")).exists()
    # A host's game whose seat 2 was accepted through the host's invitation link and is
    # then played by nobody (the server passes at its deadlines): the host could win
    # against an address nobody reads. Once its player plays it themselves, rounds count.
    g = rated_game(seed=1)
    hosts = [mailbox_key_hash(f"p{n}@example.com") for n in range(4)]
    sides_before = list(SideRating.objects.values_list("pk", "mu", "sigma", "rounds"))
    with commit():
        game = play_on(g.refresh(), rounds=1, absent={2})
    assert verdicts(game) == [(1, False, "unconfirmed")]
    assert not PlayerRating.objects.filter(mailbox__in=hosts).exists()
    assert list(SideRating.objects.values_list("pk", "mu", "sigma", "rounds")) == sides_before
    page = page_of(client, g.seats[0])
    assert ("Round 1 did not count for the ratings: a seat was not played by a player who "
            "took it from their own address") in page
    g.seats[0].language = "it"
    g.seats[0].save()
    assert "Il round 1 non è contato per il rating" in page_of(client, g.seats[0])
    with commit():
        game = play_on(game, rounds=2)
    assert verdicts(game) == [(1, False, "unconfirmed"), (2, True, "")]
    assert PlayerRating.objects.filter(mailbox__in=hosts).count() == 4
    assert "Il round 2 è contato per il rating." in page_of(client, g.seats[0])


def test_a_player_who_asked_to_be_forgotten_is_rated_as_nobody(commit: Any) -> None:
    """Forgotten while a game that waits for a newcomer goes on: the rounds still count
    for the others, and nothing new is kept of them (no rating starting again)."""
    g = rated_game(seed=1)
    Game.objects.filter(pk=g.game.pk).update(while_seat_open="wait")
    assert not forget_player("p3@example.com").done  # the game waits for its end
    with commit():
        game = play_on(g.refresh(), rounds=1)
    assert verdicts(game) == [(1, True, "")]
    rated = set(PlayerRating.objects.values_list("mailbox", flat=True))
    assert rated == {mailbox_key_hash(f"p{n}@example.com") for n in range(3)}
