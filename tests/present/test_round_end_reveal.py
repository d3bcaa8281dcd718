"""Every dwarf card of a round is shown once it ends, on the seat page and in the round-end
email (docs/RULES.md Part 1 "End of a round" and Part 3), and never before."""

from __future__ import annotations

import pytest
from django.test import Client

from games import engine
from games.engine.cards_s2 import BLUE, BOSS, GEOLOGIST, GREEN, SABOTEUR
from games.seatview.services import facts
from tests.engine.helpers import position
from tests.support import make_game, put_opening_state

pytestmark = pytest.mark.django_db
SWAP_HATS = next(c.id for c in engine.rules_for("saboteur2").cards.values()
                 if c is not None and c.action == "swap_hats")


def _swapped_and_ended() -> tuple[engine.State, engine.State]:
    state = position(ruleset="saboteur2", seats=5, turn=0,
                     roles=[BLUE, SABOTEUR, GREEN, GEOLOGIST, BOSS], hands={0: [SWAP_HATS]})
    swapped = engine.apply(state, {"type": "action", "card": SWAP_HATS, "target": 1})
    swapped.deck.clear()
    for seat in range(5):
        swapped.hands[seat] = []
    swapped.hands[swapped.turn] = ["p05"]
    ended = engine.apply(swapped, {"type": "pass", "cards": ["p05"]})
    return swapped, ended


def _page(client: Client, token: str) -> str:
    return client.get(f"/play/{token}/").content.decode()


def test_the_round_results_list_every_dwarf_card_only_once_the_round_ended() -> None:
    made = make_game(players=5, ruleset="saboteur2")
    game = made.game
    swapped, ended = _swapped_and_ended()
    client = Client()
    put_opening_state(game, swapped)
    game.save()
    for token in made.tokens:  # before the end: no seat sees what was set aside
        body = _page(client, token)
        assert "<li>set aside: " not in body and "discarded hat" not in body
    put_opening_state(game, ended)
    game.save()
    end = next(e for e in ended.log if e["type"] == "round_end")
    aside = end["set_aside_roles"]
    assert len(aside) == 9 and end["discarded_roles"] == [SABOTEUR]
    for token in made.tokens:
        body = _page(client, token)
        assert body.count("<li>set aside: ") == len(aside)
        assert body.count("<li>discarded hat: ") == 1


def test_the_round_end_email_facts_name_the_set_aside_and_discarded_cards() -> None:
    _, ended = _swapped_and_ended()
    view = engine.view(ended, 0)
    result = facts.round_result(view, 1, {s: f"P{s}" for s in range(5)})
    assert result is not None
    labels = [who for who, _ in result["roles"]]
    assert labels[:5] == ["P0", "P1", "P2", "P3", "P4"]
    assert labels.count("set aside") == 9 and labels.count("discarded hat") == 1
