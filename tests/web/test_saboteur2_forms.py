"""The seat page's forms for Saboteur 2: passes and frees composed from checkboxes,
refused discards keeping the form, the theft at the end of a round, and who reads an
inspection's result or a new hat."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import pytest
from django.test import Client

from games import engine
from games.engine.types import Move as EngineMove
from games.game.core.game import Game, Move
from games.seatview.core import describe
from tests.support import (
    GameWithLinks,
    assert_replay_matches,
    choose,
    make_game,
    move_for,
    page_version,
)

pytestmark = pytest.mark.django_db
# Each box named by its card ("discard Tunnel N-S"): six boxes, six names.
CHECKBOX = re.compile(r'<input type="checkbox" name="cards" value="([^"]+)" '
                      r'form="discard-form" aria-label="discard [^"]+"( checked)?>')


def s2_game(players: int = 4, seed: int = 1) -> GameWithLinks:
    return make_game(players=players, seed=seed, ruleset="saboteur2")


def system_move(g: GameWithLinks, move: Mapping[str, Any]) -> Game:
    return move_for(g.refresh().pk, g.game.version, move)


def hand_of(g: GameWithLinks, seat: int) -> list[str]:
    return list(g.refresh().state().hands[seat])


def checkboxes(body: str) -> list[tuple[str, bool]]:
    return [(card, bool(checked)) for card, checked in CHECKBOX.findall(body)]


def test_a_pass_is_made_with_checkboxes_on_the_hand_cards(client: Client) -> None:
    g = s2_game()
    body = client.get(g.page(0)).content.decode()
    hand = hand_of(g, 0)
    assert checkboxes(body) == [(c, False) for c in hand]
    assert 'data-pass="1-3"' in body and 'value="free"' not in body  # nothing in front
    assert 'type="radio" name="move"' not in body  # not 41 radio buttons
    response = client.post(g.page(0) + "move", {"version": page_version(body),
                                                "compose": "pass", "cards": [hand[0], hand[2]]},
                           follow=True)
    assert Move.objects.get().move == {"type": "pass", "cards": [hand[0], hand[2]], "seat": 0}
    assert "Player0 passed, discarding " in response.content.decode()
    other = Client().get(g.page(1)).content.decode()
    assert "Player0 passed, discarding 2 cards face down." in other
    assert len(hand_of(g, 0)) == 6
    assert_replay_matches(g.game)


@pytest.mark.parametrize(("count", "status", "message"), [
    (4, 422, "Discard 1 to 3 cards."), (0, 422, "Discard 1 to 3 cards.")])
def test_a_refused_pass_shows_why_and_keeps_the_ticks(client: Client, count: int, status: int,
                                                      message: str) -> None:
    g = s2_game()
    hand = hand_of(g, 0)
    response = client.post(g.page(0) + "move", {"version": 0, "compose": "pass",
                                                "cards": hand[:count]})
    body = response.content.decode()
    assert response.status_code == status and message in body
    assert checkboxes(body) == [(c, i < count) for i, c in enumerate(hand)]
    assert not Move.objects.exists()


def test_unreadable_card_ids_are_refused_by_the_form(client: Client) -> None:
    g = s2_game()
    response = client.post(g.page(0) + "move", {"version": 0, "compose": "pass",
                                                "cards": ["<script>"]})
    assert response.status_code == 400 and "could not be read" in response.content.decode()
    unknown = client.post(g.page(0) + "move", {"version": 0, "compose": "pass",
                                               "cards": ["p99"]})
    assert unknown.status_code == 400 and not Move.objects.exists()


def broken_tool_in_front_of_seat_1() -> tuple[GameWithLinks, str]:
    """A game where seat 0 opened by breaking a tool of seat 1."""
    for seed in range(1, 200):
        state = engine.new_game(4, seed, "saboteur2")
        breaks = [m for m in engine.legal_moves(state)
                  if m["type"] == "action" and m.get("tool") and m["target"] == 1
                  and RULES.cards[cast(str, m["card"])].action == "break"]
        if breaks:
            g = s2_game(seed=seed)
            system_move(g, breaks[0])
            return g, cast(str, breaks[0]["card"])
    raise AssertionError("no seed found")


RULES = engine.rules_for("saboteur2")


def test_freeing_yourself_takes_two_ticked_cards_and_the_card_to_remove(client: Client) -> None:
    g, broken = broken_tool_in_front_of_seat_1()
    body = client.get(g.page(1)).content.decode()
    assert 'data-free="2"' in body
    assert re.search(rf'<select name="remove"><option value="{broken}"', body)
    hand = hand_of(g, 1)
    response = client.post(g.page(1) + "move", {"version": page_version(body),
                                                "compose": "free", "cards": hand[1:3],
                                                "remove": broken})
    assert response.status_code == 302
    move = Move.objects.order_by("number").last()
    assert move is not None and move.move == {"type": "free", "cards": hand[1:3],
                                              "remove": broken, "seat": 1}
    state = g.refresh().state()
    assert state.in_front[1] == [] and len(state.hands[1]) == 5
    mine = client.get(g.page(1)).content.decode()
    theirs = Client().get(g.page(2)).content.decode()
    assert "Player1 discarded 2 cards face down to remove Broken " in theirs
    assert re.search(r"Player1 discarded [^<]+, [^<]+ to remove Broken ", mine)
    assert_replay_matches(g.game)


def test_a_refused_free_shows_why_and_keeps_the_form(client: Client) -> None:
    g, broken = broken_tool_in_front_of_seat_1()
    hand = hand_of(g, 1)
    response = client.post(g.page(1) + "move", {"version": 1, "compose": "free",
                                                "cards": hand[:1], "remove": broken})
    body = response.content.decode()
    assert response.status_code == 422 and "Discard exactly 2 cards." in body
    assert checkboxes(body)[0] == (hand[0], True)
    assert f'<option value="{broken}" selected>' in body
    missing = client.post(g.page(1) + "move", {"version": 1, "compose": "free",
                                               "cards": hand[:2]})
    assert missing.status_code == 400
    assert "Choose the card in front of you to remove." in missing.content.decode()
    assert Move.objects.count() == 1


def play_until(g: GameWithLinks, done: Callable[[engine.State], bool],
               pick: Callable[[engine.State, list[EngineMove]], Mapping[str, Any]]
               ) -> engine.State:
    state = g.refresh().state()
    while not done(state):
        assert not state.finished
        system_move(g, pick(state, engine.legal_moves(state)))
        state = g.refresh().state()
    return state


def test_an_inspection_is_read_only_by_the_inspector() -> None:
    g = s2_game(seed=3)

    def pick(state: engine.State, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        inspect = [m for m in legal if m["type"] == "action"
                   and RULES.cards[m["card"]].action == "inspection"]
        return inspect[0] if inspect else next(m for m in legal if m["type"] == "pass")

    state = play_until(g, lambda s: any(e["type"] == "inspection" for e in s.log), pick)
    event = next(e for e in state.log if e["type"] == "inspection")
    inspector, target = event["seat"], event["target"]
    role = state.roles[target]
    for seat in range(4):
        body = Client().get(g.page(seat)).content.decode()
        if seat == inspector:
            assert f"You inspected Player{target}: " in body
            assert f"(your inspection: {describe.role_name(role)})" in body
        elif seat == target:  # the inspected player reads it about themselves
            assert f"Player{inspector} inspected your dwarf card." in body
            assert "your inspection" not in body
        else:
            assert f"Player{inspector} inspected the dwarf card of Player{target}." in body
            assert f"inspected Player{target}: " not in body and "your inspection" not in body
        api = Client().get(g.api(seat)).json()["view"]
        assert api["inspected"] == ({str(target): role} if seat == inspector else {})


def test_a_new_hat_is_seen_only_by_its_owner() -> None:
    g = s2_game(seed=5)

    def pick(state: engine.State, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        hats = [m for m in legal if m["type"] == "action"
                and RULES.cards[m["card"]].action == "swap_hats" and m["target"] != state.turn]
        return hats[0] if hats else next(m for m in legal if m["type"] == "pass")

    state = play_until(g, lambda s: any(e["type"] == "swap_hats" for e in s.log), pick)
    event = next(e for e in state.log if e["type"] == "swap_hats")
    owner, actor = event["target"], event["seat"]
    for seat in range(4):
        body = Client().get(g.page(seat)).content.decode()
        if seat == owner:
            assert f"Player{actor} made you swap hats: you are now " in body
        else:
            assert f"Player{actor} made Player{owner} swap hats for a dwarf card set aside." \
                in body
            assert "you are now" not in body


def test_the_thief_steals_through_the_page_and_the_others_wait() -> None:
    g = s2_game(seed=10)  # the seeded game of tests/play/test_saboteur2_games.py
    rng = random.Random(10)
    state = play_until(g, lambda s: s.phase == "theft",
                       lambda s, legal: choose(legal, rng, 0.35))
    thief = state.actor
    assert thief is not None
    client = Client()
    body = client.get(g.page(thief)).content.decode()
    assert "It is your turn: steal a nugget." in body and "Steal a nugget from" in body
    steals = re.findall(r'<input type="radio" name="move" value="([^"]+)"', body)
    assert steals and len(steals) == len(engine.legal_moves(state))
    other = Client().get(g.page((thief + 1) % 4)).content.decode()
    assert f"Waiting for Player{thief} to steal a nugget." in other
    response = client.post(g.page(thief) + "move", {"version": page_version(body),
                                                    "move": steals[0].replace("&quot;", '"')},
                           follow=True)
    assert f"Player{thief} stole a nugget from Player" in response.content.decode()
    assert_replay_matches(g.game)
