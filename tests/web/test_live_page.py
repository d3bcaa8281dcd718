"""The seat page follows the game: a small version endpoint it polls, the page's changing
parts it fetches when something changed, the cells and log lines of the moves since the
player's own last move marked, whole status sentences, and the goals shown at the end."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from games import engine
from games.engine.types import Move as EngineMove
from games.engine.types import SeatView
from games.game.core.game import Game, Move
from games.moves.services import seat_services as services
from games.seatview.core import recent
from games.seatview.core.move_forms import build
from games.seatview.services import pages
from games.setup.services import game_setup
from tests.support import GameWithLinks, make_game, move_for

pytestmark = pytest.mark.django_db


def _move(g: GameWithLinks, pick: str = "place") -> EngineMove:
    state = g.refresh().state()
    legal = engine.legal_moves(state)
    move = next((m for m in legal if m["type"] == pick), legal[0])
    move_for(g.game.pk, g.game.version, {**move, "seat": state.actor},
                        actor_kind=Move.Actor.SEAT, seat_number=state.actor)
    return move


def test_the_version_endpoint_says_how_far_the_game_is_and_changes_nothing(
        client: Client, game: GameWithLinks) -> None:
    url = f"/api/play/{game.tokens[1]}/version"
    first = client.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "no-store, private"
    assert first.json() == {"version": 0, "status": "active", "talk": 0, "notice": 0}
    assert client.get(url).json() == first.json()  # a GET changes nothing
    _move(game)
    services.post_message(game.seats[2], "hello")
    now = client.get(url).json()
    assert now["version"] == 1 and now["talk"] > 0
    assert client.get("/api/play/" + "x" * 43 + "/version").status_code == 404
    assert client.post(url).status_code == 405


def test_an_invitation_link_cannot_poll(client: Client) -> None:
    created = game_setup.create_game(
        name="G", players=[game_setup.PlayerSpec(name=n, email=f"{n}@example.com")
                           for n in ("a", "b", "c")], seed=1, start=True)
    invitation = created.seats[0][1]
    token = invitation.rstrip("/").rsplit("/", 1)[1]
    answer = client.get(f"/api/play/{token}/version")
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "invitation_not_accepted"


@override_settings(RATE_LIMITS={"api_seat": [2, 60]})
def test_polling_counts_against_the_links_limit_and_says_when_to_come_back(
        client: Client, game: GameWithLinks) -> None:
    url = f"/api/play/{game.tokens[0]}/version"
    assert [client.get(url).status_code for _ in range(2)] == [200, 200]
    refused = client.get(url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


@override_settings(RATE_LIMITS={"api_seat": [3, 60]})
def test_the_live_parts_count_against_the_links_limit_with_the_api(
        client: Client, game: GameWithLinks) -> None:
    """/play/<secret>/live shares the JSON API's per-link limit (one bucket): past it a
    429 with Retry-After, for the page's parts and the API alike; other links are not
    counted with it."""
    live, version = game.page(0) + "live", f"/api/play/{game.tokens[0]}/version"
    assert [client.get(live).status_code for _ in range(2)] == [200, 200]
    assert client.get(version).status_code == 200  # the third request of the link
    for url in (live, version):
        refused = client.get(url)
        assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
        assert refused["Cache-Control"] == "no-store, private"
    assert client.get(game.page(1) + "live").status_code == 200  # another seat's link


def test_the_live_parts_are_the_pages_own_and_leave_its_notices_alone(
        client: Client, game: GameWithLinks) -> None:
    """The script swaps in parts with the same ids; fetching them consumes no notice (the
    message after a move stays for the page that follows the move)."""
    page = client.get(game.page(0)).content.decode()
    live = client.get(game.page(0) + "live")
    assert live.status_code == 200 and live["Cache-Control"] == "no-store, private"
    body = live.content.decode()
    for part in ("live", "live-status", "maze", "hand", "live-table", "talk-messages"):
        assert f'id="{part}"' in body and f'id="{part}"' in page
    assert "<html" not in body
    moved = client.post(game.page(0) + "move", {
        "version": 0, "move": pages_move(game)})
    assert moved.status_code == 302
    client.get(game.page(0) + "live")
    after = client.get(moved["Location"])  # the page after the move still says what it did
    assert "placed" in after.content.decode().split('id="what-happened"', 1)[1][:600]


def pages_move(game: GameWithLinks) -> str:
    import json
    state = game.refresh().state()
    move = next(m for m in engine.legal_moves(state) if m["type"] == "place")
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def test_the_cells_and_lines_since_my_last_move_are_marked(client: Client,
                                                           game: GameWithLinks) -> None:
    mine = _move(game)  # seat 0
    theirs = [_move(game), _move(game)]  # seats 1 and 2
    body = client.get(game.page(0)).content.decode()
    marked = set(re.findall(r'class="cell (?:placed|target|cleared)[^"]*changed[^"]*" '
                            r'data-cell="(-?\d+,-?\d+)"', body))
    expected = {f"{m['x']},{m['y']}" for m in theirs if m["type"] == "place"}
    assert marked == expected and f"{mine['x']},{mine['y']}" not in marked
    assert body.count('class=" fresh"') == len(theirs)  # their lines, not mine
    # Seat 1 has seen its own move: only seat 2's is new to it.
    seat1 = client.get(game.page(1)).content.decode()
    assert body.count("changed-mark") > seat1.count("changed-mark")


def test_a_rockfall_marks_the_cell_it_emptied() -> None:
    view: SeatView = {"seat": 0, "log": [
        {"type": "round_start", "round": 1, "first": 0},
        {"type": "place", "seat": 0, "card": "p05", "x": 1, "y": 0},
        {"type": "rockfall", "seat": 1, "card": "a20", "x": 1, "y": 0, "removed": "p05"}]}
    assert recent.changed_cells(view) == {(1, 0)}
    assert recent.since(view) == 2
    assert recent.since({"seat": None, "log": view["log"]}) == 2  # a spectator: the last
    from games.seatview.core import drawing
    board: SeatView = {"board": [{"x": 0, "y": 0, "card": engine.view(engine.new_game(3, 1), 0)[
        "board"][0]["card"]}]}
    svg = drawing.board_svg(board, (), {(1, 0)})
    assert 'class="cell cleared changed" data-cell="1,0"' in svg


@pytest.mark.parametrize(("status", "sentence"), [
    (Game.Status.FINISHED, "The game is over."), (Game.Status.PAUSED, "The game is paused."),
    (Game.Status.CANCELLED, "The game was cancelled."),
    (Game.Status.SETUP, "The game is waiting for its players.")])
def test_the_status_is_a_sentence_and_the_role_goes_when_the_game_is_over(
        client: Client, game: GameWithLinks, status: str, sentence: str) -> None:
    Game.objects.filter(pk=game.game.pk).update(status=status)
    body = client.get(game.page(0)).content.decode()
    line = body.split('<p class="status">', 1)[1].split("</p>", 1)[0]
    assert line.split()[:len(sentence.split())] == sentence.split()
    assert ("Your secret role this round" in body) is (status in (Game.Status.PAUSED,
                                                                  Game.Status.SETUP))
    assert pages.status_sentence(game.refresh(), {"phase": "play"}) == sentence


def test_a_map_is_offered_on_its_goal_cell() -> None:
    from tests.engine.helpers import position
    state = position(seats=3, turn=0, hands={0: ["a25"]})
    view = engine.view(state, 0)
    forms = build(view, engine.legal_moves(state), {0: "A", 1: "B", 2: "C"})
    card = next(c for c in forms.hand if c.card["id"] == "a25")
    assert card.cells == "8,-2 8,0 8,2"


def test_a_finished_game_shows_every_goal(client: Client) -> None:
    import random

    from tests.support import choose
    g = make_game(players=3, seed=31)
    rng = random.Random(31)
    while not (state := g.refresh().state()).finished:
        move_for(g.game.pk, g.game.version,
                            {**choose(engine.legal_moves(state), rng), "seat": state.actor},
                            actor_kind=Move.Actor.SEAT, seat_number=state.actor)
    body = client.get(g.page(0)).content.decode()
    assert body.count('class="card goal') == 3 and "card back" not in body
    goals = body.split('<ul class="goals">', 1)[1].split("</ul>", 1)[0]
    assert "face down" not in goals
