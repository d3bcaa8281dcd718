"""Helpers for the server tests: making games, choosing moves, replay and leak checks."""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import dataclass
from typing import Any

from games import engine, services
from games.models import Game, Seat

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


@dataclass
class GameWithLinks:
    game: Game
    seats: list[Seat]
    tokens: list[str]

    def refresh(self) -> Game:
        self.game.refresh_from_db()
        return self.game

    def page(self, number: int) -> str:
        return f"/play/{self.tokens[number]}/"

    def api(self, number: int) -> str:
        return f"/api/play/{self.tokens[number]}/"

    def actor_seat(self) -> int:
        actor = self.refresh().state().actor
        assert actor is not None
        return actor


def token_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[-1]


def make_game(players: int = 3, seed: int = 1, start: bool = True,
              **kwargs: Any) -> GameWithLinks:
    specs = [services.PlayerSpec(name=f"Player{i}", email=f"p{i}@example.com")
             for i in range(players)]
    created = services.create_game(name="Test game", players=specs, seed=seed, start=start,
                                   **kwargs)
    return GameWithLinks(game=created.game, seats=[s for s, _ in created.seats],
                         tokens=[token_of(link) for _, link in created.seats])


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A quick-finishing but varied policy: mostly dig east, sometimes anything."""
    places = [m for m in legal if m["type"] == "place"]
    if places and rng.random() < 0.7:
        best = max(m["x"] for m in places)
        return rng.choice([m for m in places if m["x"] == best])
    return rng.choice(legal)


def replayed(game: Game) -> engine.State:
    moves = [m.move for m in game.moves.order_by("number")]
    return engine.replay(game.seats.count(), game.seed, moves, game.ruleset, game.options)


def assert_replay_matches(game: Game) -> None:
    game.refresh_from_db()
    assert game.moves.count() == game.version
    assert replayed(game).to_json() == game.snapshot


# ---- leak checks ---------------------------------------------------------------------------


def quoted_forms(card_id: str) -> list[str]:
    """How a card id would appear in a response: as a JSON/HTML string or attribute value."""
    return [f'"{card_id}"', f"'{card_id}'", f"&quot;{card_id}&quot;", f">{card_id}<"]


def assert_no_card_ids(body: str, card_ids: set[str], where: str) -> None:
    for card_id in card_ids:
        for form in quoted_forms(card_id):
            assert form not in body, f"{where}: another seat's card {card_id} shows as {form}"


def other_hands(state: engine.State, seat: int) -> set[str]:
    return {c for s, hand in enumerate(state.hands) if s != seat for c in hand}


def hidden_goals(state: engine.State, seat: int | None) -> list[int]:
    known = set(state.known_goals[seat]) if seat is not None else set()
    return [i for i, shown in enumerate(state.goal_revealed) if not shown and i not in known]


def perturbed(state: engine.State, seat: int | None, rng: random.Random) -> engine.State:
    """The same position as `seat` sees it, with everything hidden from it changed:
    other hands and the deck re-dealt, other roles flipped, the goals `seat` has not
    seen shuffled, other seats' gold moved round (until the end)."""
    new = engine.State.from_json(state.to_json())
    others = [s for s in range(new.seats) if s != seat]
    pool = [c for s in others for c in new.hands[s]] + new.deck
    rng.shuffle(pool)
    for s in others:
        size = len(new.hands[s])
        new.hands[s], pool = pool[:size], pool[size:]
    new.deck = pool
    for s in others:
        new.roles[s] = "saboteur" if new.roles[s] != "saboteur" else "gold-digger"
    hidden = hidden_goals(new, seat)
    kinds = [new.goal_kinds[i] for i in hidden]
    rng.shuffle(kinds)
    for i, kind in zip(hidden, kinds, strict=True):
        new.goal_kinds[i] = kind
    if not new.finished and len(others) > 1:
        golds = [new.gold_won[s] for s in others]
        for s, won in zip(others, golds[1:] + golds[:1], strict=True):
            new.gold_won[s] = won
    return new


def without_csrf(body: str) -> str:
    return CSRF_INPUT.sub("", body)


def page_moves(body: str) -> list[dict[str, Any]]:
    """Every move offered by the forms of a seat page (option and radio values)."""
    values = re.findall(r'<(?:option|input type="radio" name="move") value="(\{[^"]*\})"', body)
    return [json.loads(html.unescape(v)) for v in values]


def page_version(body: str) -> int:
    match = re.search(r'name="version" value="(\d+)"', body)
    assert match, "no move form on the page"
    return int(match.group(1))
