"""Complete worlds consistent with one seat's view: an engine State the strong bot can
play forward. What the view shows is copied (the maze, turned goals, the seat's hand,
the cards in front of everyone, hand and pile sizes, the round's log); what it hides is
sampled: every other seat's role from the belief (within the round's dwarf cards), the
other hands, the draw pile's order and the cards set aside from the cards nobody has
seen, and the goals the seat has not looked under.
"""

from __future__ import annotations

import random
from functools import lru_cache

from games.engine import State, card_json, new_game, rules_for
from games.engine.cards import GOAL_CONTENTS
from games.engine.types import JSON, SeatView

from ..knowledge import round_log
from .belief import Belief, dwarf_pool, own_seat

SET_ASIDE_S2 = 10  # Saboteur 2 sets 10 cards aside unseen at the start of a round
CARD_FIELDS = ("card", "removed")


@lru_cache(maxsize=8)
def stone_exits(kind: str, *, rotated: bool) -> tuple[str, ...]:
    return tuple(card_json(GOAL_CONTENTS[kind], rotated)["exits"])


def seen_cards(view: SeatView) -> set[str]:
    """Every card id this seat has seen this round (they are not in the unseen pool)."""
    seen = {str(c["id"]) for c in view["hand"]}
    seen |= {str(cell["card"]["id"]) for cell in view["board"]}
    for player in view["players"]:
        seen |= {str(c["id"]) for c in player.get("in_front", [])}
    for event in round_log(view):
        for key in CARD_FIELDS:
            value = event.get(key)
            if isinstance(value, str):
                seen.add(value)
        cards = event.get("cards")
        if isinstance(cards, list):
            seen |= {str(c) for c in cards}
    return seen


def goal_kinds(view: SeatView, rng: random.Random,
               gold: int | None = None) -> tuple[list[str], list[bool], list[int]]:
    """Goal contents (turned and mapped ones as seen, the others sampled; the gold under
    goal `gold` when given and still open), which goals are turned, and which ones this
    seat has seen."""
    cells = {(c["x"], c["y"]): c["card"] for c in view["board"]}
    kinds: list[str | None] = []
    known: list[int] = []
    stone_only: set[int] = set()
    for goal in view["goals"]:
        card = cells.get((goal["x"], goal["y"]), {})
        status = goal["status"]
        if goal["revealed"]:
            kinds.append("gold" if status == "gold" else next(
                (k for k in ("stone-nw", "stone-ne")
                 if stone_exits(k, rotated=bool(card.get("rotated")))
                 == tuple(card.get("exits", ()))),
                "stone-nw"))
            continue
        if status != "hidden":
            known.append(int(goal["goal"]))
        kinds.append("gold" if status == "gold" else None)
        if status == "stone":
            stone_only.add(int(goal["goal"]))
    left = ["gold", "stone-nw", "stone-ne"]
    for kind in kinds:
        if kind in left:
            left.remove(kind)
    open_ = [i for i, k in enumerate(kinds) if k is None]
    if "gold" in left:
        places = [i for i in open_ if i not in stone_only] or open_
        where = places[rng.randrange(len(places))]
        if gold in places:
            where = gold
        kinds[where] = "gold"
        left.remove("gold")
        open_.remove(where)
    rng.shuffle(left)
    for i, kind in zip(open_, left, strict=False):
        kinds[i] = kind
    return [k or "stone-nw" for k in kinds], [bool(g["revealed"]) for g in view["goals"]], known


def sample_roles(view: SeatView, belief: Belief, rng: random.Random) -> tuple[list[str], list[str]]:
    """Every seat's role (sampled from the belief among the round's dwarf cards left)
    and the dwarf cards set aside."""
    seats, me = int(view["seats"]), own_seat(view)
    pool = dwarf_pool(str(view["ruleset"]), seats)
    roles = [""] * seats
    roles[me] = str(view.get("role"))
    if roles[me] in pool:
        pool.remove(roles[me])
    order = sorted((s for s in range(seats) if s != me),
                   key=lambda s: (s not in belief.certain, rng.random()))
    for seat in order:
        weights = [(r, belief.p(seat, r)) for r in sorted(set(pool))]
        total = sum(w for _, w in weights)
        if total <= 0:
            weights = [(r, float(pool.count(r))) for r in sorted(set(pool))]
            total = sum(w for _, w in weights)
        pick = rng.random() * total
        role = weights[-1][0]
        for r, w in weights:
            pick -= w
            if pick <= 0:
                role = r
                break
        roles[seat] = role
        pool.remove(role)
    rng.shuffle(pool)
    return roles, pool[:int(view.get("dwarves_aside", len(pool)))]


def dealt_roles(view: SeatView, roles: list[str],
                rng: random.Random) -> tuple[list[str], list[str]]:
    """`roles` and the dwarf cards set aside: what the pool has left, shuffled."""
    pool = dwarf_pool(str(view["ruleset"]), int(view["seats"]))
    for role in roles:
        if role in pool:
            pool.remove(role)
    rng.shuffle(pool)
    return list(roles), pool[:int(view.get("dwarves_aside", len(pool)))]


def sample_world(view: SeatView, belief: Belief, rng: random.Random,
                 fixed: tuple[list[str], int] | None = None) -> State:
    """One complete State agreeing with everything `view` shows, its seat to act.
    `fixed`: every seat's role and the gold's goal (a hypothesis of the joint belief)
    instead of roles drawn seat by seat from `belief`."""
    ruleset, seats, me = str(view["ruleset"]), int(view["seats"]), own_seat(view)
    state = new_game(seats, rng.getrandbits(48), ruleset, dict(view.get("options") or {}))
    state.round, state.phase, state.turn = int(view["round"]), "play", me
    state.board = {(c["x"], c["y"]): (str(c["card"]["id"]), bool(c["card"].get("rotated")))
                   for c in view["board"]}
    state.goal_kinds, state.goal_revealed, mine = goal_kinds(
        view, rng, fixed[1] if fixed else None)
    state.roles, state.roles_aside = sample_roles(view, belief, rng) if fixed is None \
        else dealt_roles(view, fixed[0], rng)
    state.in_front = [[str(c["id"]) for c in p.get("in_front", [])] for p in view["players"]]
    seen = seen_cards(view)
    pool = [c for c in rules_for(ruleset).deck_cards if c not in seen]
    rng.shuffle(pool)
    state.hands = []
    for player in view["players"]:
        if player["seat"] == me:
            state.hands.append([str(c["id"]) for c in view["hand"]])
            continue
        size = int(player["hand_size"])
        state.hands.append(pool[:size])
        pool = pool[size:]
    deck_size = int(view["deck_size"])
    state.deck, pool = pool[:deck_size], pool[deck_size:]
    aside = SET_ASIDE_S2 if ruleset == "saboteur2" else 0
    state.set_aside, state.discard = pool[:aside], pool[aside:]
    state.known_goals = [[] for _ in range(seats)]
    state.known_goals[me] = mine
    state.log = world_log(view, state)
    for event in state.log:
        if event.get("type") == "map" and isinstance(event.get("seat"), int):
            state.known_goals[event["seat"]].append(int(event.get("goal", 0)))
    if ruleset == "saboteur2":
        thieves = {s for s, p in enumerate(view["players"])
                   if any(c.get("action") == "theft" for c in p.get("in_front", []))}
        order = [int(e["seat"]) for e in state.log if e.get("type") == "theft"]
        state.extra = {"theft_order": [s for i, s in enumerate(order)
                                       if s in thieves and s not in order[:i]],
                       "hats_discarded": []}
    state.cache.clear()
    return state


def world_log(view: SeatView, state: State) -> list[JSON]:
    """The round's log from the round's start, with the secrets the engine reads back
    filled in from the world (an inspection tells its player the sampled role)."""
    log: list[JSON] = [dict(e) for e in view.get("log") or []]
    start = max((i for i, e in enumerate(log) if e.get("type") == "round_start"), default=-1)
    opening: JSON = {"type": "round_start", "round": state.round, "first": 0}
    events: list[JSON] = log[start:] if start >= 0 else [opening]
    out = []
    for event in events:
        if event.get("type") == "inspection" and "_secret" not in event:
            target = int(event.get("target", 0))
            event = dict(event, _to=[event.get("seat")],
                         _secret={"role": state.roles[target]})
            event.pop("role", None)
        out.append(event)
    return out
