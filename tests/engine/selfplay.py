"""Seeded self-play: bots, and probes for moves that are not listed."""

from __future__ import annotations

import random
from typing import Any

from games.engine import IllegalMove, Move, State, apply, legal_moves, rules_for

from .helpers import check_invariants, check_no_leaks


def choose(state: State, moves: list[Move], rng: random.Random, greed: float) -> Move:
    """Half random, half eager to dig east, so games both find gold and run dry."""
    places = [m for m in moves if m["type"] == "place"]
    if places and rng.random() < greed:
        best = max(m["x"] - abs(m["y"]) * 0.5 for m in places)
        return rng.choice([m for m in places if m["x"] - abs(m["y"]) * 0.5 == best])
    return rng.choice(moves)


def probes(state: State, rng: random.Random, count: int) -> list[Move]:
    """Random well-formed moves for the seat to act, legal or not."""
    seat = state.actor
    assert seat is not None
    hand = state.hands[seat] or ["p01"]
    xs = [x for x, _ in state.board]
    ys = [y for _, y in state.board]
    out: list[Move] = []
    for _ in range(count):
        card = rng.choice(hand)
        x, y = rng.randint(min(xs) - 1, max(xs) + 1), rng.randint(min(ys) - 1, max(ys) + 1)
        kind = rng.choice(["place", "action", "rockfall", "map", "pass", "pick_gold", "free",
                           "steal"])
        s2 = state.ruleset == "saboteur2"
        if kind == "place":
            out.append({"type": "place", "card": card, "x": x, "y": y,
                        "rotated": rng.random() < 0.5})
        elif kind == "action":
            move: Move = {"type": "action", "card": card, "target": rng.randrange(state.seats)}
            # Canonical form (as listed): tool cards name their tool; others may try one.
            if rules_for(state.ruleset).cards[card].tools or rng.random() < 0.5:
                move["tool"] = rng.choice(["pickaxe", "lantern", "cart"])
            out.append(move)
        elif kind == "rockfall":
            out.append({"type": "rockfall", "card": card, "x": x, "y": y})
        elif kind == "map":
            out.append({"type": "map", "card": card, "goal": rng.randrange(3)})
        elif kind == "pass":
            out.append({"type": "pass", "cards": [card]} if s2 else {"type": "pass",
                                                                     "card": card})
        elif kind == "free":
            pair = [c for c in state.hands[seat] if rng.random() < 0.5][:2]
            front = state.in_front[seat] or ["a01"]
            out.append({"type": "free", "cards": pair, "remove": rng.choice(front)})
        elif kind == "steal":
            out.append({"type": "steal", "target": rng.randrange(state.seats)})
        else:
            out.append({"type": "pick_gold", "card": f"gold-{rng.randint(1, 28):02d}"})
    return out


def play_checked(seats: int, seed: int, ruleset: str = "base", leaks_every: int = 1,
                 probe_count: int = 1, options: dict[str, Any] | None = None) -> State:
    """Play one whole game, checking every invariant after every move."""
    from games.engine import new_game

    rng = random.Random(seed)
    greed = rng.choice([0.0, 0.6, 0.95])
    state = new_game(seats, seed, ruleset, options)
    rules = rules_for(ruleset)
    steps = 0
    while not state.finished:
        # Full round trips and leak checks at every round boundary as well as on schedule.
        boundary = state.phase != "play" or (state.log and state.log[-1]["type"] in (
            "round_start", "round_end"))
        check_invariants(state, through_text=boundary or steps % 25 == 0)
        if boundary or steps % leaks_every == 0:
            check_no_leaks(state)
        moves = legal_moves(state)
        assert moves, "a seat to act always has a legal move"
        if steps % 10 == 0:
            assert len({_key(m) for m in moves}) == len(moves), "legal moves listed once each"
        for probe in probes(state, rng, probe_count) + rng.sample(moves, 1):
            try:
                apply(state, probe)
            except IllegalMove:
                assert probe not in moves, f"listed move refused: {probe}"
            else:
                assert probe in moves, f"unlisted move accepted: {probe}"
        state = apply(state, choose(state, moves, rng, greed))
        steps += 1
        assert steps < 2000, "game does not end"
    check_invariants(state)
    check_no_leaks(state)
    check_private_keys(state)
    assert state.round == rules.rounds and legal_moves(state) == []
    return state


def check_private_keys(state: State) -> None:
    """Views hide exactly engine.views.PRIVATE_KEYS: no event holds another "_" key, and
    an event with a recipient or an end-of-game reveal always has its secret."""
    from games.engine.views import PRIVATE_KEYS

    for event in state.log:
        private = {key for key in event if key.startswith("_")}
        assert private <= set(PRIVATE_KEYS), f"unknown private key in {event}"
        assert not private or "_secret" in private, f"private keys without a secret: {event}"


def _key(move: Move) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in move.items()))
