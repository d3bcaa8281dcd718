"""Whole seeded games, played to the end through the JSON API and through the HTML forms.

Every fifth move and at the end, replaying the Move rows from the seed gives the stored
snapshot; no response for a seat (the actor's before every move, everyone's after secret
events and every tenth move) carries another seat's hand, role or a goal it has not seen.
`play_api` and `play_html` serve both rulesets (tests/play/test_saboteur2_games.py).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from games import engine
from games.engine.types import CardView, LogEvent
from games.game.core.game import Game
from games.seatview.core.move_forms import symmetric
from tests.s2_checks import check_s2_page, check_s2_view
from tests.support import (
    GameWithLinks,
    assert_no_card_ids,
    assert_replay_matches,
    canonical,
    choose,
    form_post,
    hidden_goals,
    make_game,
    offered_moves,
    other_hands,
    page_version,
    perturbed,
    without_csrf,
)

MAX_MOVES = 1000

pytestmark = pytest.mark.slow  # whole games: not in `run.py test --quick`


def check_api_view(data: dict[str, Any], state: engine.State, seat: int) -> None:
    """What an API response for `seat` may contain, checked on its structure."""
    view = data["view"]
    assert view == engine.view(state, seat)
    assert view["role"] == state.roles[seat]
    # Other seats' hands: never, except in log events of earlier rounds (cards return
    # to the deck each round, so those ids say nothing about today's hands).
    current = [e for e in view["log"] if e.get("round") == state.round
               and e["type"] == "round_start"]
    start = view["log"].index(current[-1]) if current else 0
    recent = dict(view, log=view["log"][start:])
    assert_no_card_ids(json.dumps(recent) + json.dumps(data["legal_moves"]),
                       other_hands(state, seat), f"API seat {seat}")
    # Roles of this round: only once the round is over.
    round_over = any(r["round"] == state.round for r in view["round_results"])
    roles_shown = [e["roles"] for e in view["log"] if "roles" in e]
    if not round_over:
        assert len(roles_shown) == state.round - 1
    for goal in hidden_goals(state, seat):
        assert view["goals"][goal]["status"] == "hidden"
        cell = next(c for c in view["board"] if (c["x"], c["y"]) == (
            view["goals"][goal]["x"], view["goals"][goal]["y"]))
        assert cell["card"]["goal"] == "hidden" and cell["card"]["segments"] == []
    if state.ruleset == "saboteur2":
        check_s2_view(view, state, seat)


def assert_blind_to_secrets(client: Client, game: Game, url: str, seat: int | None,
                            rng: random.Random) -> None:
    """Changing everything `seat` may not know leaves its response byte for byte the same.

    Time stands still across both requests: the clock's remaining seconds are public and
    would otherwise differ by the second that passes between them on a slow machine."""
    original = game.snapshot
    with time_machine.travel(timezone.now(), tick=False):
        before = without_csrf(client.get(url).content.decode())
        changed = perturbed(game.state(), seat, rng).to_json()
        Game.objects.filter(pk=game.pk).update(snapshot=changed)
        try:
            after = without_csrf(client.get(url).content.decode())
        finally:
            Game.objects.filter(pk=game.pk).update(snapshot=original)
    assert before == after, f"the response for seat {seat} at {url} depends on hidden facts"


# Events after which every seat's page (and API answer) is read: each tells one seat
# something the others may not learn (a map's goal, an inspection, a new hat, a theft, a
# new round's hands and roles), or changes what each may do (a freed seat, gold picks).
SECRET_EVENTS = frozenset({"map", "inspection", "swap_hats", "free", "steal", "reveal",
                           "payout", "gold_pick", "round_start", "round_end"})
# And every this many moves whatever happened (the hand of the seat that just moved).
EVERYONE_EVERY = 20
# Replaying the stored moves from the seed gives the stored snapshot: checked this often
# and at the end (a move stored wrong stays wrong, so a later check finds it too; each
# check replays the whole game so far).
REPLAY_EVERY = 20


@dataclass
class Readers:
    """Whose page (or API answer) is read before a move: the actor's always; after a
    secret event since the last move, also the seat that made it (the one it may have
    told a secret) and one other seat in turn (one who must not learn it); everyone's
    every EVERYONE_EVERY moves. test_pages_and_api_do_not_depend_on_hidden_facts and its
    Saboteur 2 twin check pages and answers against perturbed secrets."""

    seats: int
    seen_events: int = 0
    last_mover: int | None = None
    turn: int = 0

    def before(self, truth: list[LogEvent], moves: int, actor: int) -> list[int]:
        """`truth`: the moderators' log now (every event, the secret ones too)."""
        fresh = {e["type"] for e in truth[self.seen_events:]}
        self.seen_events = len(truth)
        mover, self.last_mover = self.last_mover, actor
        if moves % EVERYONE_EVERY == 0:
            return list(range(self.seats))
        if fresh & SECRET_EVENTS:
            self.turn = (self.turn + 1) % self.seats
            return sorted({actor, self.turn, actor if mover is None else mover})
        return [actor]


def play_api(client: Client, g: GameWithLinks, rng: random.Random,
             special: float = 0.0) -> int:
    """The moves through the API; each seat's answer checked (check_api_view) as in
    play_html: the actor's before every move, everyone's after secret events and every
    EVERYONE_EVERY moves."""
    moves = 0
    readers = Readers(len(g.tokens))
    while not g.refresh().state().finished:
        assert moves < MAX_MOVES
        state = g.game.state()
        actor = g.actor_seat()
        for seat in readers.before(engine.moderator_view(state)["log"] or [], moves, actor):
            answer = client.get(g.api(seat)).json()
            assert answer["version"] == g.game.version and answer["seat"] == seat
            check_api_view(answer, state, seat)
            if seat == actor:
                data = answer
        move = choose(data["legal_moves"], rng, special)
        response = client.post(g.api(actor) + "moves", {"version": data["version"], "move": move},
                               content_type="application/json")
        assert response.status_code == 200, response.content
        assert response.json()["version"] == data["version"] + 1
        moves += 1
        if moves % REPLAY_EVERY == 0:
            assert_replay_matches(g.game)
    assert_replay_matches(g.game)
    return moves


@pytest.mark.django_db
# Seeds whose games end soonest under this policy (114 and 115 moves, not 201 and 201): a
# whole game is the point, not its length.
@pytest.mark.parametrize(("players", "seed"), [(3, 148), (4, 57)])
def test_whole_game_through_the_api(players: int, seed: int) -> None:
    g = make_game(players=players, seed=seed)
    client = Client()
    moves = play_api(client, g, random.Random(seed))
    game = g.refresh()
    assert game.status == Game.Status.FINISHED and game.deadline_at is None
    assert moves == game.version
    final = client.get(g.api(0)).json()
    assert final["legal_moves"] == [] and final["view"]["winners"] is not None
    late = client.post(g.api(0) + "moves", {"version": game.version, "move": {"type": "pass"}},
                       content_type="application/json")
    assert late.status_code == 422 and late.json()["error"]["code"] == "game_finished"


def play_html(g: GameWithLinks, rng: random.Random, special: float = 0.0) -> list[str]:
    """Each seat in its own browser (a client of its own: the note of what your move
    did is for your browser only).

    The actor's page is read before every move (the move is one of its forms); every
    seat's page is checked for leaks after each secret event and every EVERYONE_EVERY moves, not
    after every move: a page costs tens of milliseconds, and what a page shows changes
    for the others only with the events (test_pages_and_api_do_not_depend_on_hidden_facts
    checks every response against perturbed secrets)."""
    pages = []
    moves = 0
    names = {n: f"Player{n}" for n in range(len(g.tokens))}
    clients = [Client() for _ in g.tokens]
    readers = Readers(len(g.tokens))
    while not g.refresh().state().finished:
        assert moves < MAX_MOVES
        state = g.game.state()
        truth = engine.moderator_view(state)["log"] or []
        actor = g.actor_seat()
        body = ""
        for seat in readers.before(truth, moves, actor):
            page = clients[seat].get(g.page(seat)).content.decode()
            assert_no_card_ids(page, other_hands(state, seat), f"page of seat {seat}")
            if state.ruleset == "saboteur2":
                check_s2_page(page, truth, seat, names)
            if seat == actor:
                body = page
        client = clients[actor]
        legal = engine.legal_moves(state)
        hand: dict[str | None, CardView] = {c["id"]: c for c in engine.view(state, actor)["hand"]}
        # A card that is the same turned round is offered upright only (one move per cell).
        legal = [m for m in legal
                 if not (m.get("rotated") and symmetric(hand.get(m.get("card"), {})))]
        assert offered_moves(body) == canonical(legal)
        move = choose(legal, rng, special)
        response = client.post(g.page(actor) + "move", form_post(move, page_version(body)))
        assert response.status_code == 302, response.content.decode()[:2000]
        assert response["Location"].endswith("#what-happened")
        moves += 1
        if moves % REPLAY_EVERY == 0:
            assert_replay_matches(g.game)
        if moves % 40 == 1:
            pages.append(client.get(g.page(actor)).content.decode())
    assert_replay_matches(g.game)
    return pages


@pytest.mark.django_db
def test_whole_game_through_the_html_forms() -> None:
    g = make_game(players=3, seed=70)  # seed 70: 146 moves (seed 5: 201)
    client = Client()
    play_html(g, random.Random(70))
    game = g.refresh()
    assert game.status == Game.Status.FINISHED
    body = client.get(g.page(1)).content.decode()
    assert "Final scores" in body and "winner" in body
    for number in range(1, game.state().round + 1):
        assert f"Round {number}" in body
    assert 'class="card-form"' not in body


@pytest.mark.django_db
def test_pages_and_api_do_not_depend_on_hidden_facts() -> None:
    """Non-interference: for a sample of positions of a seeded game, perturbing every
    secret a seat may not know leaves its page and its API answer identical."""
    g = make_game(players=4, seed=57, spectators_allowed=True)  # 115 moves (seed 77: 201)
    client = Client()
    rng = random.Random(57)
    checked = 0
    while not g.refresh().state().finished:
        state = g.game.state()
        if g.game.version % 17 == 0 or state.phase == "gold":
            for seat in range(4):
                assert_blind_to_secrets(client, g.game, g.page(seat), seat, rng)
                assert_blind_to_secrets(client, g.game, g.api(seat), seat, rng)
            assert_blind_to_secrets(client, g.game, f"/watch/{g.game.public_id}/", None, rng)
            checked += 1
        move = choose(engine.legal_moves(state), rng)
        actor = state.actor
        assert actor is not None
        response = client.post(g.api(actor) + "moves", {"version": g.game.version, "move": move},
                               content_type="application/json")
        assert response.status_code == 200
    assert checked >= 5
