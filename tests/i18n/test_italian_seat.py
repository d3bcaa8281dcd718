"""Tried as a new Italian player would: the seat page, the turn email and an illegal
move's API message read as Italian (the catalogs are in effect)."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from games import engine
from games.game.core.game import Game
from games.seats.core.links import link_for
from games.seatview.core import describe
from games.setup.services import game_setup
from tests.support import token_of, work_off

pytestmark = pytest.mark.django_db(transaction=True)


def _italian_game() -> tuple[Game, list[str]]:
    players = [game_setup.PlayerSpec(name=n, email=f"{n.lower()}@example.com", language="it")
               for n in ("Anna", "Bruno", "Carla")]
    created = game_setup.create_game(name="Partita", players=players, seed=5, start=True)
    work_off()  # the worker and the beat: the invitations and the first turn email
    # The players' own links: a host's invitation link never opens a started seat.
    return created.game, [token_of(link_for(seat)) for seat, _ in created.seats]


def test_an_italian_seat_reads_italian_on_its_page_email_and_api() -> None:
    game, tokens = _italian_game()
    client = Client()
    page = client.get(f"/play/{tokens[0]}/").content.decode()
    assert 'lang="it"' in page or "lang='it'" in page
    assert "Your hand" not in page and "What happened" not in page
    assert "<h2>La tua mano</h2>" in page
    with translation.override("it"):
        role = describe.role_name(engine.view(game.state(), 0)["role"])
    assert role in ("cercatore d'oro", "sabotatore") and escape(role) in page
    turn = [m for m in mail.outbox if m.to == ["anna@example.com"]]
    assert turn, [m.subject for m in mail.outbox]
    assert all("your turn" not in m.subject.lower() for m in turn)
    # Seat 1 tries to move out of turn: the refusal is in Italian.
    state = game.state()
    move = engine.legal_moves(state)[0]
    answer = client.post(f"/api/play/{tokens[1]}/moves",
                         json.dumps({"version": game.version, "move": move}),
                         content_type="application/json")
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "not_your_turn"
    assert "It is not your turn" not in error["message"]
    assert "turno" in error["message"].lower()
