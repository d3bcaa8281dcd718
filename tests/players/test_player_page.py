"""A player's public page, /players/<name>/, and its JSON twin GET /api/players/<name>: found
by the public name, showing only what the player chose to show (ratings with their history
while listed, the record while shown to tables) and their finished games anyone may watch
where their seat bore that name; never an address nor a seat link. Unknown names are a 404
(the API's error format under /api/); the public lists link each name to its page. Rated
rounds are set up directly (tests/ratings/support.py), no game is played."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games.game.core.game import Game
from games.home.services.export import export_player_data
from games.home.services.forget import forget_player
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import PublicName
from games.ratings.core.rating_rows import RatingChange
from games.ratings.services.player_record import set_record_shown
from games.seats.core.reliability import MissedDeadline
from games.seats.core.seat import Seat
from games.tables.services.naming import choose_name
from tests.ratings.support import rated_round, rating_row
from tests.support import GameWithLinks, make_game

pytestmark = pytest.mark.django_db

ANN = "p0@example.com"


def anns_games() -> tuple[GameWithLinks, GameWithLinks, GameWithLinks]:
    """Three games with Ann in seat 0: finished and watchable under her public name, the
    same under another name, and a private finished one."""
    games = (make_game(players=3, seed=1, rated=True), make_game(players=3, seed=2),
             make_game(players=3, seed=3))
    for g, name, watch in zip(games, ("Ann", "Annie", "Ann"), (True, True, False),
                              strict=True):
        Seat.objects.filter(game=g.game, number=0).update(player_name=name)
        Game.objects.filter(pk=g.game.pk).update(status=Game.Status.FINISHED,
                                                 spectators_allowed=watch)
    return games


def test_the_page_shows_what_the_player_chose_to_show(client: Client, clock: Any) -> None:
    rated, other, private = anns_games()
    choose_name(ANN, "Ann", listed=True)  # with its keys: other capitals find it
    owner = PublicName.objects.get(name="Ann")
    rating_row(ANN, mu=27.55, sigma=3.0, rounds=12)  # 1602
    for number, (before, after) in enumerate(((1500, 1540), (1540, 1571), (1571, 1602)), 1):
        rated_round(rated.game, number, {ANN: (0, before, after)})
        clock.shift(timedelta(days=1))
    set_record_shown(ANN, shown=True)
    MissedDeadline.objects.create(game=rated.game, seat=rated.seats[0],
                                  mailbox=mailbox_key_hash(ANN), version=3)

    page = client.get("/players/Ann/").content.decode()
    assert "<h1>Ann</h1>" in page
    assert "rating 1602 after 12 rated rounds" in page
    # The history: an image named in words, and the same numbers in a table.
    assert re.search(r'<svg class="rating-plot"[^>]* role="img" aria-labelledby="plot-base-'
                     r'title"', page)
    assert '<title id="plot-base-title">Saboteur rating after each rated round</title>' in page
    rows = re.findall(r"<tr><td>(\d+)</td><td>[^<]+</td><td>([^<]+)</td><td>([^<]+)</td></tr>",
                      page)
    assert rows == [("10", "+40", "1540"), ("11", "+31", "1571"), ("12", "+31", "1602")]
    assert "1 deadline missed" in page and "1 game played" not in page  # 3 played
    assert f'href="/watch/{rated.game.public_id}/"' in page
    assert other.game.public_id not in page and private.game.public_id not in page
    assert "/play/" not in page and "@" not in page

    answer = client.get("/api/players/Ann").json()
    assert answer["name"] == "Ann" and answer["page"] == "/players/Ann/"
    assert answer["ratings"]["base"]["rating"] == 1602
    assert [(s["change"], s["rating"]) for s in answer["ratings"]["base"]["history"]] == [
        (40, 1540), (31, 1571), (31, 1602)]
    assert answer["record"]["deadlines_missed"] == 1
    assert answer["record"]["games_played"] == 3
    assert answer["games"] == [{"name": "Test game", "ruleset": "base", "players": 3,
                                "rated": True, "ended": answer["games"][0]["ended"],
                                "watch": f"/watch/{rated.game.public_id}/"}]
    assert "@" not in str(answer)
    # Other capitals: the page of the name as written.
    moved = client.get("/players/ann/")
    assert moved.status_code == 301 and moved["Location"] == "/players/Ann/"
    assert client.get("/api/players/ANN").json()["name"] == "Ann"

    # Unlisted and hidden: the number is nowhere on the page, nor the record.
    owner.ratings_listed = False
    owner.save()
    set_record_shown(ANN, shown=False)
    page = client.get("/players/Ann/").content.decode()
    assert "This player does not list their ratings." in page
    assert "This player does not show their record." in page
    assert "1602" not in page and "<svg" not in page and "deadline" not in page
    answer = client.get("/api/players/Ann").json()
    assert answer["ratings"] is None and answer["record"] is None
    assert "1602" not in str(answer)


def test_an_unknown_name_is_a_404_and_no_odd_name_is_a_500(client: Client) -> None:
    PublicName.objects.create(mailbox=mailbox_key_hash(ANN), name="Ann/Bo ?#%")
    page = client.get("/players/Nobody/")
    assert page.status_code == 404
    assert "No player has the public name “Nobody”." in page.content.decode()
    assert client.get("/api/players/Nobody").json()["error"]["code"] == "no_player"
    # A NUL (the site's guard answers first), a name too long, a control character.
    for path in ("/api/players/%00", "/api/players/" + "x" * 40, "/api/players/%E2%80%AE"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"]["code"] in ("no_player", "not_found"), path
    assert client.get("/players/%00/").status_code == 404
    refused = client.post("/api/players/Nobody", data="{}", content_type="application/json")
    assert refused.status_code == 405 and refused["Allow"] == "GET, HEAD"
    assert client.post("/players/Nobody/").status_code == 405
    # Any visible sign, a slash too, makes a working link.
    assert client.get("/players/Ann/Bo%20%3F%23%25/").status_code == 200
    assert client.get("/api/players/Ann/Bo%20%3F%23%25").json()["name"] == "Ann/Bo ?#%"


def test_public_lists_link_each_name_to_its_page(client: Client, clock: Any) -> None:
    rating_row(ANN, mu=30.0, sigma=3.0, rounds=12)
    PublicName.objects.create(mailbox=mailbox_key_hash(ANN), name="Ann", ratings_listed=True)
    ratings = client.get("/ratings/").content.decode()
    assert '<a href="/players/Ann/">Ann</a>' in ratings
    # The spectator page links a seat that bears its player's public name, no other.
    g = make_game(players=3, seed=1, spectators_allowed=True)
    PublicName.objects.create(mailbox=mailbox_key_hash("p1@example.com"), name="Bert")
    Seat.objects.filter(game=g.game, number=0).update(player_name="Ann")
    watch = client.get(f"/watch/{g.game.public_id}/").content.decode()
    assert '<a href="/players/Ann/">Ann</a>' in watch
    assert "/players/Bert/" not in watch and "Player1" in watch


def test_the_history_is_in_the_data_download_and_goes_with_forget_me(
        client: Client, clock: Any) -> None:
    g = make_game(players=3, seed=1, rated=True)
    Game.objects.filter(pk=g.game.pk).update(status=Game.Status.FINISHED)
    choose_name(ANN, "Ann", listed=True)
    rated_round(g.game, 1, {ANN: (0, 1500, 1531), "p1@example.com": (1, 1500, 1469)})
    assert [(row["round"], row["rating_before"], row["rating"]) for row in
            export_player_data(ANN)["rating_history"]] == [(1, 1500, 1531)]
    assert forget_player(ANN).done
    assert list(RatingChange.objects.values_list("seat", flat=True)) == [1]
    assert client.get("/players/Ann/").status_code == 404
