"""Rated games: a round's ratings move by the model once its roles are revealed, once;
unrated games move nothing; the home, its JSON twin and /ratings/ show them."""

from __future__ import annotations

from typing import Any

import pytest
import time_machine
from django.test import Client

from games.game.core.game import Game
from games.people.core.home_links import home_link
from games.people.core.mailboxes import mailbox_key_hash
from games.ratings.core.model import Hand, Skill, Team, rate_round, side_key, side_prior
from games.ratings.core.rating_rows import PlayerRating, RatedRound, RatingChange, SideRating
from games.ratings.core.sides import round_sides
from games.ratings.services import rounds, turn_shares
from games.seats.core.history import PastHolder
from tests.players.play import round_ends
from tests.ratings.support import play_on, rated_game, rating_row
from tests.support import GameWithLinks, make_game, token_of

pytestmark = pytest.mark.django_db


def play_first_round(g: GameWithLinks, seed: int = 3) -> Game:
    """Moves through the one move service until the first round has ended."""
    return play_on(g.refresh(), rounds=1, seed=seed)


def test_a_rated_round_moves_the_ratings_by_the_model(commit: Any) -> None:
    g = rated_game()
    with commit():
        game = play_first_round(g)
    [event] = round_ends(game)
    sides = round_sides("base", event)
    assert sides  # a winner and a loser
    # What the model says, from newcomers' skills and the side teammates' priors.
    teams = [Team(side=side_key("base", s.side, len(s.seats)), won=s.won,
                  seats=tuple((Hand(f"p{n}@example.com", Skill()),) for n in s.seats))
             for s in sides]
    expected = rate_round(teams, {t.side: side_prior(len(t.seats)) for t in teams})
    stored = {row.mailbox: row for row in PlayerRating.objects.all()}
    assert len(stored) == 4
    for n in range(4):
        row = stored[mailbox_key_hash(f"p{n}@example.com")]
        assert (row.mu, row.sigma, row.rounds) == pytest.approx(
            (expected.players[f"p{n}@example.com"].mu,
             expected.players[f"p{n}@example.com"].sigma, 1))
    winners = {n for s in sides if s.won for n in s.seats}
    for n in range(4):
        row = stored[mailbox_key_hash(f"p{n}@example.com")]
        assert (row.mu > 25) == (n in winners)
    assert SideRating.objects.count() == 2
    # What the round did to each rating, kept beside it: from a newcomer's to the new one.
    changes = {c.mailbox: c for c in RatingChange.objects.filter(rated_round__game=game)}
    assert {(c.seat, c.mu_before, c.mu_after, c.sigma_after) for c in changes.values()} == {
        (n, 25.0, row.mu, row.sigma) for n in range(4)
        for row in [stored[mailbox_key_hash(f"p{n}@example.com")]]}
    # Rated once: following the game up again changes nothing.
    assert rounds.after_moves(game.pk) == 0
    assert RatedRound.objects.filter(game=game).count() == 1


def test_an_unrated_game_moves_no_rating(commit: Any) -> None:
    g = make_game(players=4, seed=2)
    with commit():
        play_first_round(g)
    assert not PlayerRating.objects.exists() and not RatedRound.objects.exists()


def test_a_taken_over_seat_shares_its_round_by_turns() -> None:
    g = rated_game(seed=5)
    game = play_first_round(g)
    [event] = round_ends(game)
    end = game.version
    # Seat 0 changed hands halfway through the round: p0 held it until then (the seat's
    # history, as a takeover writes it), new@ holds it now.
    turns = [n for n, s in game.moves.values_list("number", "seat_number") if s == 0]
    middle = turns[len(turns) // 2]
    seat = game.seats.get(number=0)
    PastHolder.objects.create(game=game, seat=seat, number=0, name="P0",
                              mailbox=mailbox_key_hash("p0@example.com"),
                              until_version=middle - 1, until_log=0)
    seat.email = "new@example.com"
    seat.save()
    shares = turn_shares.turn_shares(game, 1, end)
    assert shares[0] == pytest.approx({
        mailbox_key_hash("p0@example.com"): len(turns) // 2 / len(turns),
        mailbox_key_hash("new@example.com"): 1 - len(turns) // 2 / len(turns)})
    assert shares[1] == {mailbox_key_hash("p1@example.com"): 1.0}
    assert event["round"] == 1


def home_token(address: str) -> str:
    return token_of(home_link(address))


def test_the_home_shows_the_name_and_ratings_and_ratings_list_only_who_opted_in(
        client: Client, clock: Any) -> None:
    ann, bob = "ann@example.org", "bob@example.org"
    for address, mu, count in ((ann, 30.0, 12), (bob, 27.0, 3)):
        rating_row(address, mu=mu, sigma=3.0, rounds=count)
    token = home_token(ann)
    answer = client.get(f"/api/me/{token}/").json()
    assert answer["name"] == ""
    assert answer["ratings"] == {"base": {"rating": 1700, "rounds": 12, "provisional": False}}
    assert client.get("/api/ratings/?ruleset=base").json()["players"] == []  # nobody opted in
    client.post(f"/me/{token}/name", {"name": "Ann the Bold"})
    client.post(f"/me/{token}/ratings", {"listed": "1"})
    bob_token = home_token(bob)
    client.post(f"/me/{bob_token}/name", {"name": "Bob"})  # named, not listed
    assert client.get(f"/api/me/{token}/").json()["name"] == "Ann the Bold"
    assert client.get("/api/ratings/?ruleset=base").json()["players"] == [
        {"name": "Ann the Bold", "rating": 1700, "rounds": 12, "provisional": False}]
    page = client.get("/ratings/?ruleset=base").content.decode()
    assert ">Ann the Bold</a></td>" in page and ">Bob</a>" not in page
    assert "@" not in page
    home = client.get(f"/me/{token}/").content.decode()
    assert "rating 1700 after 12 rated rounds" in home
    assert "0 deadlines missed" in home  # reliability beside it, not mixed in


def test_ratings_refuse_an_unknown_ruleset(client: Client) -> None:
    answer = client.get("/api/ratings/?ruleset=chess")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "unknown_ruleset"
    assert client.get("/ratings/?ruleset=chess").status_code == 400
    assert client.post("/api/ratings/", data="{}", content_type="application/json"
                       ).status_code == 405


def test_certainty_decays_before_the_next_rated_round(commit: Any) -> None:
    with time_machine.travel("2027-01-01 12:00Z", tick=False) as traveller:
        rating_row("p0@example.com", mu=30.0, sigma=2.0, rounds=40)
        g = rated_game(seed=9)
        with commit():
            pass
        traveller.move_to("2027-12-01 12:00Z")  # eleven months away
        with commit():
            play_first_round(g)
    row = PlayerRating.objects.get(mailbox=mailbox_key_hash("p0@example.com"))
    # After a round the sigma is larger than after a round played a month later would be:
    # eleven months added uncertainty first, so this round moved the rating more.
    assert row.rounds == 41 and row.sigma > 2.0
    assert abs(row.mu - 30.0) > 0.5


def test_an_operator_sets_a_game_up_as_rated() -> None:
    from io import StringIO

    from django.core.management import call_command
    call_command("creategame", "--name", "Rated one", "--player", "Ann <ann@example.org>",
                 "--player", "Bob <bob@example.org>", "--player", "Cy <cy@example.org>",
                 "--rated", stdout=StringIO())
    call_command("creategame", "--name", "Friendly", "--player", "Ann <ann@example.org>",
                 "--player", "Bob <bob@example.org>", "--player", "Cy <cy@example.org>",
                 stdout=StringIO())
    assert dict(Game.objects.values_list("name", "rated")) == {"Rated one": True,
                                                               "Friendly": False}
