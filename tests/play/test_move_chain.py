"""The hash chain of the moves (docs/api.md "Fairness and the game record"): each move extends
it from the commitment; every seat page, turn email and API answer shows its head at that
version; an undo takes it back; the record carries it with the final scores."""

from __future__ import annotations

import hashlib
import html
import importlib
import json
import random
import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client

from games import engine
from games.game.core.game import Game, Move
from games.moderation import services as moderation
from games.moderation.services import integrity
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.email_support import sent_to
from tests.support import choose, make_game, move_for

pytestmark = pytest.mark.django_db


def expected_heads(game: Game) -> list[str]:
    """h_0 .. h_version as docs/api.md defines them, spelled out here with hashlib:
    h_0 = the commitment, h_n = sha256("<h_(n-1)>:<salt>:" + the move as canonical JSON)."""
    heads = [game.commitment]
    for move in Move.objects.filter(game=game).order_by("number").values_list("move",
                                                                               flat=True):
        data = json.dumps(move, sort_keys=True, separators=(",", ":")).encode()
        heads.append(hashlib.sha256(f"{heads[-1]}:{game.salt}:".encode() + data).hexdigest())
    return heads


def shown_in_email(body: str) -> tuple[int, str]:
    found = re.search(r"Fingerprint of the moves after move (\d+): ([0-9a-f]{16})\n", body)
    assert found, body
    return int(found[1]), found[2]


def test_every_move_extends_the_chain_and_every_answer_shows_its_head(
        client: Client, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=31)
    game = g.refresh()
    # Every turn's email is looked at, though each seat's page was open a moment before
    # its turn: no turn email waits for the page (games.mail.core.seen_turns).
    Seat.objects.filter(game=game).update(skip_seen_turns=False)
    assert game.chain_head == game.commitment  # h_0: no move yet
    assert client.get(g.api(1)).json()["chain"] == {"version": 0, "head": game.commitment}
    rng = random.Random(31)
    for version in range(1, 6):
        state = g.refresh().state()
        actor = state.actor
        assert actor is not None
        with commit():
            answer = client.post(g.api(actor) + "moves",
                                 {"version": version - 1,
                                  "move": choose(engine.legal_moves(state), rng)},
                                 content_type="application/json")
        head = expected_heads(g.refresh())[version]
        assert answer.json()["chain"] == {"version": version, "head": head}
        assert client.get(g.api((actor + 1) % 3)).json()["chain"] == {"version": version,
                                                                       "head": head}
        page = html.unescape(client.get(g.page(actor)).content.decode())
        assert (f'Fingerprint of the moves after move {version}: '
                f'<code class="chain-head" title="{head}">{head[:16]}</code>') in page
        turn = sent_to(f"p{g.refresh().actor}@example.com")[-1]
        assert "your turn" in turn.subject
        assert shown_in_email(turn.body) == (version, head[:16])
        assert f'title="{head}">{head[:16]}</code>' in turn.alternatives[0][0]
    assert g.refresh().chain_head == expected_heads(g.game)[-1]


def test_bots_and_the_moves_of_every_kind_of_actor_extend_the_chain(commit: Any) -> None:
    players = [game_setup.PlayerSpec(name="Ann", email="ann@x.org"),
               game_setup.PlayerSpec(name="Bert", bot=True),
               game_setup.PlayerSpec(name="Bo", bot=True)]
    with commit():
        game = game_setup.create_game(name="Bots", players=players, seed=32, start=True).game
    rng = random.Random(32)
    for _ in range(3):
        game.refresh_from_db()
        state = game.state()
        assert state.actor == 0  # the bots have answered
        with commit():
            move_for(game.pk, game.version,
                                {**choose(engine.legal_moves(state), rng), "seat": 0},
                                actor_kind=Move.Actor.SYSTEM, seat_number=0)
    game.refresh_from_db()
    assert game.version >= 9 and {m.actor_kind for m in game.moves.all()} == {"bot", "system"}
    assert game.chain_head == expected_heads(game)[-1]
    assert integrity.check_integrity(game).ok


def test_an_undo_takes_the_head_back_and_play_goes_on_from_there(client: Client) -> None:
    g = make_game(players=3, seed=33)
    mod = User.objects.create_user("mod", "mod@x.org", "pw")
    rng = random.Random(33)

    def play() -> None:
        state = g.refresh().state()
        client.post(g.api(state.actor or 0) + "moves",
                    {"version": g.game.version, "move": choose(engine.legal_moves(state), rng)},
                    content_type="application/json")

    for _ in range(4):
        play()
    before = expected_heads(g.refresh())
    moderation.undo_to(g.game.pk, 2, expected_version=4, moderator=mod, reason="mistake",
                       public_note="")
    assert g.refresh().chain_head == before[2]
    assert client.get(g.api(0)).json()["chain"] == {"version": 2, "head": before[2]}
    play()
    after = expected_heads(g.refresh())
    assert after[:3] == before[:3] and g.game.chain_head == after[3] != before[3]
    assert integrity.check_integrity(g.game).ok


def test_the_integrity_check_finds_a_move_changed_in_the_database() -> None:
    g = make_game(players=3, seed=34)
    state = g.game.state()
    passes = [m for m in engine.legal_moves(state) if m["type"] == "pass"]
    move_for(g.game.pk, 0, {**passes[0], "seat": 0}, actor_kind=Move.Actor.SEAT,
                        seat_number=0)
    assert integrity.check_integrity(g.refresh()).ok
    Move.objects.filter(game=g.game, number=1).update(move={**passes[1], "seat": 0})
    report = integrity.check_integrity(g.refresh())
    assert "The moves do not give the chain head the game published." in report.problems


def test_the_migration_gives_every_existing_game_its_head() -> None:
    g = make_game(players=3, seed=35)
    for version in range(3):
        state = g.refresh().state()
        move = next(m for m in engine.legal_moves(state) if m["type"] == "pass")
        move_for(g.game.pk, version, {**move, "seat": state.actor},
                            actor_kind=Move.Actor.SEAT, seat_number=state.actor)
    fresh = make_game(players=3, seed=36)
    Game.objects.update(chain_head="")
    migration = importlib.import_module("games.migrations.0020_game_chain_head")
    migration.chain_existing_games(apps, None)
    assert g.refresh().chain_head == expected_heads(g.game)[3]
    assert fresh.refresh().chain_head == fresh.game.commitment


def test_the_record_carries_the_chain_and_the_final_scores(client: Client) -> None:
    g = make_game(players=3, seed=37)
    rng = random.Random(37)
    while not g.refresh().state().finished:
        state = g.game.state()
        move_for(g.game.pk, g.game.version,
                            {**choose(engine.legal_moves(state), rng), "seat": state.actor},
                            actor_kind=Move.Actor.SEAT, seat_number=state.actor)
    record = client.get(g.api(0) + "record").json()
    heads = expected_heads(g.game)
    assert record["format"] == 2
    assert record["chain"] == {"version": g.game.version, "head": heads[-1],
                               "heads": heads[1:]}
    assert record["scores"] == g.game.state().scores
    assert sum(record["scores"]) > 0
