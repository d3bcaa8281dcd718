"""The home page and its JSON twin: every game of one address, in its groups (and the
games it left)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.game.core.game import Game
from games.handover.services import opening, takeover
from games.people.core.home_links import home_token
from tests.handover_support import open_row
from tests.home.support import ANN, anns_games, table, token_of
from tests.support import make_game, new_home_url

pytestmark = pytest.mark.django_db


def positions(body: str, *names: str) -> list[int]:
    return [body.index(f">{name}</a>") for name in names]


def test_the_home_lists_games_of_two_hosts_your_turn_first_soonest_first(
        client: Client) -> None:
    games = anns_games()
    response = client.get(f"/me/{games.token}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert response["Cache-Control"] == "no-store, private"
    soon, later, waiting, over = positions(body, "Soon", "Later", "Waiting", "Over")
    assert body.index("Your turn") < soon < later < body.index("Waiting for others")
    assert body.index("Waiting for others") < waiting < body.index(">Finished<") < over
    assert "Other people" not in body  # Zoe's game
    assert "Waiting P" in body and "’s turn since" in body  # whose turn, since when
    assert "replay/" in body and "/record" in body


def test_each_row_opens_its_seat(client: Client) -> None:
    games = anns_games()
    body = client.get(f"/me/{games.token}/").content.decode()
    start = body.index('href="/play/', body.index("Your turn"))
    seat_path = body[start + 6:body.index('"', start + 6)]
    page = client.get(seat_path)
    assert page.status_code == 200
    assert "Ann in Soon" in page.content.decode()


def test_the_json_twin_has_every_key(client: Client) -> None:
    games = anns_games()
    response = client.get(f"/api/me/{games.token}/")
    assert response.status_code == 200
    rows: list[dict[str, Any]] = response.json()["games"]
    assert [row["name"] for row in rows] == ["Soon", "Later", "Waiting", "Over"]
    assert set(rows[0]) == {"game", "name", "ruleset", "status", "seat", "your_turn",
                            "deadline", "link", "api", "left", "unread_talk"}
    assert not any(row["left"] for row in rows)
    assert rows[0]["game"] == games.soon.public_id and rows[0]["your_turn"] is True
    assert games.soon.deadline_at is not None  # a game in play has a deadline
    assert rows[0]["deadline"].startswith(games.soon.deadline_at.isoformat()[:16])
    assert rows[2]["your_turn"] is False and rows[2]["deadline"] is None
    assert client.get(rows[0]["api"]).json()["seat"] == rows[0]["seat"]
    assert rows[3]["status"] == "finished"


def test_a_rotated_home_link_is_a_404_at_once_page_and_api(client: Client) -> None:
    games = anns_games()
    old = games.token
    assert client.get(f"/me/{old}/").status_code == 200
    response = client.post(f"/me/{old}/rotate")
    assert response.status_code == 302
    new = token_of(response["Location"])
    assert client.get(f"/me/{old}/").status_code == 404
    missing = client.get(f"/api/me/{old}/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert client.get(f"/me/{new}/").status_code == 200
    assert client.get(f"/api/me/{new}/").status_code == 200


def test_unknown_home_links_are_404(client: Client) -> None:
    assert client.get("/me/" + "a" * 43 + "/").status_code == 404
    assert client.get("/api/me/" + "a" * 43 + "/").status_code == 404
    assert client.get("/api/me/short/").status_code == 404


def test_the_json_twin_answers_429_past_its_limit(client: Client, settings: Any) -> None:
    games = anns_games()
    settings.RATE_LIMITS = {"api_home": [2, 60]}
    for _ in range(2):
        assert client.get(f"/api/me/{games.token}/").status_code == 200
    busy = client.get(f"/api/me/{games.token}/")
    assert busy.status_code == 429 and int(busy["Retry-After"]) > 0
    assert busy.json()["error"]["code"] == "too_many_requests"


def test_one_query_per_group_not_per_game(client: Client,
                                          django_assert_max_num_queries: Any) -> None:
    games = anns_games()
    for number in range(12):
        table(f"More{number}", "host3@example.com", ann_to_act=number % 2 == 0)
    over = [table(f"Done{n}", "host3@example.com", ann_to_act=False) for n in range(6)]
    Game.objects.filter(pk__in=[g.pk for g in over]).update(status=Game.Status.FINISHED)
    client.get(f"/me/{games.token}/")  # the session and the like, once
    # 8 and the games left's 1, the email options' 1, the record's 3
    # (games.ratings.services.player_record:
    # as few whatever the number of games), the strangers' part's 3 with no table
    # forming plus the ratings' 1 (games.home.services.tables_part), the tournaments'
    # part's 2 with no event (games.home.services.tournaments_part), the alerts'
    # devices and choice, 2 (games.push.services.alerts_section), whether the
    # "next game" button is wanted and the theme (games.people.core.home_links
    # .home_choices), 1, and the unread
    # talk of every game going on (games.talk.services.reading), 1; the challenges'
    # part with none (games.home.services.challenges_part): sent, received, blocked,
    # whether challenges are taken, how many more today, 5; the events the person
    # hosts (games.tournaments.services.hosting.hosted_by), 1.
    with django_assert_max_num_queries(8 + 1 + 1 + 3 + 3 + 1 + 2 + 2 + 1 + 1 + 5 + 1):
        body = client.get(f"/me/{games.token}/").content.decode()
    assert body.count('href="/play/') >= 22


def test_the_home_speaks_the_players_language(client: Client) -> None:
    games = anns_games()
    client.post(f"/me/{games.token}/preferences", {"language": "it", "time_zone": "Europe/Rome"})
    body = client.get(f"/me/{games.token}/").content.decode()
    assert 'lang="it"' in body
    assert "(Europe/Rome)" in body


def test_new_home_url_changes_the_link() -> None:
    table("Solo", "h@example.com", ann_to_act=True)
    assert new_home_url(ANN) != new_home_url(ANN)


def left_section(body: str) -> str:
    start = body.index('<section class="home-group" id="left"')
    return body[start:body.index("</section>", start)]


def test_a_seat_handed_over_stays_on_the_leavers_home_as_left_with_the_result(
        client: Client, commit: Any) -> None:
    """Bob left, a bot stood in, Nell took his seat over: the game vanished from Bob's home.
    It stays there as a game he left: with his link while the seat looks for someone (he
    may stay), with no link once it is Nell's, and with the game's winners once it ends;
    the JSON twin says `left`."""
    g = make_game(players=3, seed=5)
    with commit():
        opening.open_seat(g.seats[1].pk)
    home = f"/me/{home_token('p1@example.com')}/"
    left = left_section(client.get(home).content.decode())
    assert "Games you left" in left and f'href="{g.page(1)}"' in left
    assert "until someone takes it over, you may stay" in left
    [row] = client.get(f"/api{home}").json()["games"]
    assert row["left"] is True and row["link"].endswith(g.page(1))
    with commit():
        takeover.take_over(open_row(g.seats[1].pk).pk,
                           takeover.Newcomer(name="Nell", email="nell@x.org", language="en"))
    body = client.get(home).content.decode()
    left = left_section(body)
    assert "Test game" in left and "as Player1, seat 2" in left
    assert "You left: someone else plays the seat now." in left
    assert "/play/" not in body  # the seat's link is Nell's now
    [row] = client.get(f"/api{home}").json()["games"]
    assert row == {"game": g.game.public_id, "name": "Test game", "ruleset": "base",
                   "status": "active", "seat": 1, "your_turn": False, "deadline": None,
                   "link": None, "api": None, "left": True, "winners": None}
    nells = client.get(f"/me/{home_token('nell@x.org')}/").content.decode()
    assert 'id="left"' not in nells and "as Nell, seat 2" in nells
    the_end(g.refresh(), scores=[9, 9, 4])
    winners = ["Player0", "Nell"]  # seat 1's gold is Nell's, who held it at the end
    left = left_section(client.get(home).content.decode())
    assert "You left before the end." in left
    assert f"The game is over. Winners: {', '.join(winners)}." in left
    [row] = client.get(f"/api{home}").json()["games"]
    assert row["status"] == "finished" and row["winners"] == winners and row["link"] is None
    # In Bob's language too.
    client.post(home + "preferences", {"language": "de", "time_zone": "UTC"})
    assert "Partien, die du verlassen hast" in client.get(home).content.decode()



def the_end(game: Game, scores: list[int]) -> None:
    """The game over with these scores (as its last move would leave it)."""
    state = game.state_without_log()
    state.gold_won = [[] for _ in scores]
    state.nuggets = list(scores)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, actor=None, deadline_at=None,
        snapshot=state.to_json(include_log=False))
