"""The JSON API: every status code."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.game.core.game import Move
from tests.support import GameWithLinks


def post(client: Client, url: str, body: Any) -> Any:
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, data, content_type="application/json")


@pytest.mark.django_db
def test_get_returns_version_seat_view_and_legal_moves(client: Client,
                                                       game: GameWithLinks) -> None:
    response = client.get(game.api(0))
    assert response.status_code == 200 and response["Cache-Control"].startswith("no-store")
    data = response.json()
    assert {"version", "seat", "view", "legal_moves", "players"} <= set(data)
    state = game.game.state()
    assert data["version"] == 0 and data["seat"] == 0
    assert data["view"] == engine.view(state, 0)
    assert data["legal_moves"] == engine.legal_moves(state)
    assert client.get(game.api(1)).json()["legal_moves"] == []  # not seat 1's turn


@pytest.mark.django_db
def test_post_a_legal_move_returns_the_new_version_and_view(client: Client,
                                                            game: GameWithLinks) -> None:
    move = engine.legal_moves(game.game.state())[0]
    response = post(client, game.api(0) + "moves", {"version": 0, "move": move})
    assert response.status_code == 200
    data = response.json()
    assert data["version"] == 1 and data["seat"] == 0
    assert data["view"] == engine.view(game.refresh().state(), 0)


@pytest.mark.django_db
def test_stale_version_is_409_and_changes_nothing(client: Client, game: GameWithLinks) -> None:
    move = engine.legal_moves(game.game.state())[0]
    assert post(client, game.api(0) + "moves", {"version": 0, "move": move}).status_code == 200
    again = post(client, game.api(0) + "moves", {"version": 0, "move": move})
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "stale_version"
    assert again.json()["error"]["version"] == 1
    assert Move.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("seat", "move", "code"), [
    (1, "legal", "not_your_turn"),
    (0, {"type": "rockfall", "card": "a01", "x": 0, "y": 0}, "card_not_in_hand"),
])
def test_illegal_move_is_422_with_code_and_message(client: Client, game: GameWithLinks,
                                                   seat: int, move: Any, code: str) -> None:
    if move == "legal":
        move = engine.legal_moves(game.game.state())[0]
    response = post(client, game.api(seat) + "moves", {"version": 0, "move": move})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert game.refresh().version == 0


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "code"), [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_request"),
    ({"move": {"type": "pass"}}, "bad_version"),
    ({"version": True, "move": {"type": "pass"}}, "bad_version"),
    ({"version": "0", "move": {"type": "pass"}}, "bad_version"),
    ({"version": 0, "move": "pass"}, "not_an_object"),
    ({"version": 0, "move": {"type": "teleport"}}, "unknown_move_type"),
    ({"version": 0, "move": {"type": "pass", "card": "zz99"}}, "unknown_card"),
    ({"version": 0, "move": {"type": "place", "card": "p01", "x": 1}}, "missing_field"),
    ({"version": 0, "move": {"type": "place", "card": "p01", "x": 1, "y": 0, "rotate": True}},
     "unknown_field"),
])
def test_malformed_request_or_move_is_400(client: Client, game: GameWithLinks, body: Any,
                                          code: str) -> None:
    response = post(client, game.api(0) + "moves", body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert game.refresh().version == 0


@pytest.mark.django_db
def test_unknown_secret_is_404_json(client: Client, game: GameWithLinks) -> None:
    for url in ["/api/play/" + "A" * 43 + "/", "/api/play/short/"]:
        response = client.get(url)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"
    response = post(client, "/api/play/" + "A" * 43 + "/moves", {"version": 0, "move": {}})
    assert response.status_code == 404


@pytest.mark.django_db
def test_wrong_methods_are_405(client: Client, game: GameWithLinks) -> None:
    assert client.get(game.api(0) + "moves").status_code == 405
    assert client.post(game.api(0)).status_code == 405


@pytest.mark.django_db
def test_game_not_started_is_422(client: Client,
                                 game_factory: Any) -> None:
    g = game_factory(players=3, start=False)
    move = engine.legal_moves(g.game.state())[0]
    response = post(client, g.api(0) + "moves", {"version": 0, "move": move})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "game_not_active"
    assert client.get(g.api(0)).json()["legal_moves"] == []


@pytest.mark.django_db
def test_the_api_post_needs_no_csrf_token(game: GameWithLinks) -> None:
    client = Client(enforce_csrf_checks=True)
    move = engine.legal_moves(game.game.state())[0]
    assert post(client, game.api(0) + "moves", {"version": 0, "move": move}).status_code == 200
