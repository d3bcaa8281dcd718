"""Building exact positions for rule tests, and the invariants self-play checks."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from games.engine import LogEvent, State, new_game, rules_for, view
from games.engine.cards import GOAL_CELLS, GOLD_VALUES

Cell = tuple[int, int]
QUOTED_ID = re.compile(r'"([a-z]+\d+)"')


def seen_log(state: State, seat: int | None) -> list[LogEvent]:
    """The log as `seat`'s view shows it (a view asked for with its log has one)."""
    log = view(state, seat)["log"]
    assert log is not None
    return log


def _take(state: State, card_id: str) -> None:
    """Remove a card from wherever it is (deck, hands, discard, maze, in front)."""
    for pile in [state.deck, state.discard, *state.hands, *state.in_front]:
        if card_id in pile:
            pile.remove(card_id)
            return
    for cell, (placed, _) in list(state.board.items()):
        if placed == card_id:
            del state.board[cell]
            return


def position(seats: int = 4, seed: int = 0, turn: int = 0,
             hands: dict[int, list[str]] | None = None,
             board: dict[Cell, tuple[str, bool]] | None = None,
             in_front: dict[int, list[str]] | None = None,
             goals: list[str] | None = None, roles: list[str] | None = None,
             options: dict[str, Any] | None = None, deck: list[str] | None = None,
             ruleset: str = "base") -> State:
    """A round-1 state with exactly the given cards where asked; cards stay conserved.

    Cards named in `hands`, `board` or `in_front` are moved there from wherever the deal
    put them; a seat's hand given here replaces its dealt hand (the dealt cards go back
    to the deck), so the box is still complete.
    """
    state = new_game(seats, seed, ruleset, options)
    state.turn = turn
    if goals is not None:
        state.goal_kinds = list(goals)
    if roles is not None:
        state.roles = list(roles)
    for seat in (hands or {}):
        state.deck.extend(state.hands[seat])
        state.hands[seat] = []
    for cell, (card_id, rotated) in (board or {}).items():
        _take(state, card_id)
        state.board[cell] = (card_id, rotated)
    for seat, cards in (in_front or {}).items():
        for card_id in cards:
            _take(state, card_id)
            state.in_front[seat].append(card_id)
    for seat, cards in (hands or {}).items():
        for card_id in cards:
            _take(state, card_id)
            state.hands[seat].append(card_id)
    if deck is not None:
        for card_id in deck:
            _take(state, card_id)
        state.deck.extend(reversed(deck))  # deck[0] is drawn first
    return state


def card_of(name: str, ruleset: str = "base", skip: int = 0) -> str:
    """The id of the (skip+1)-th card with this display name."""
    ids = [c.id for c in rules_for(ruleset).build_cards() if c.name == name]
    return ids[skip]


def box(state: State) -> Counter[str]:
    """Every path/action card in the game, wherever it is."""
    rules = rules_for(state.ruleset)
    seen: Counter[str] = Counter(state.deck)
    seen.update(state.discard)
    seen.update(state.set_aside)
    for hand in state.hands:
        seen.update(hand)
    for front in state.in_front:
        seen.update(front)
    for card_id, _ in state.board.values():
        if rules.cards.get(card_id) is not None and rules.cards[card_id].kind in ("path",
                                                                                  "action"):
            seen[card_id] += 1
    return seen


def check_invariants(state: State, *, through_text: bool = True) -> None:
    """What must hold after every move of every game. `through_text=False` is the cheap
    form for every move: card counts instead of the full census, and the round trip
    without the append-only log."""
    rules = rules_for(state.ruleset)
    if through_text:
        assert box(state) == Counter(rules.deck_cards), "cards not conserved"
    else:
        assert sum(box(state).values()) == len(rules.deck_cards), "cards not conserved"
    if state.ruleset == "base":
        gold = Counter(state.gold_pile) + Counter(state.gold_offer)
        for won in state.gold_won:
            gold.update(won)
        assert gold == Counter(list(GOLD_VALUES)), "gold cards not conserved"
        assert state.nuggets == [0] * state.seats
    else:
        dwarves = Counter(state.roles + state.roles_aside + state.extra["hats_discarded"])
        assert dwarves == Counter(rules.dwarf_cards(state.seats)), "dwarf cards not conserved"
        assert len(state.set_aside) == 10 and not state.gold_pile and not any(state.gold_won)
        assert min(state.nuggets) >= 0
    if state.finished:
        assert state.actor is None and state.round == rules.rounds
    else:
        assert state.actor is not None and 0 <= state.actor < state.seats
    if state.phase == "play":
        size = rules.hand_size(state.seats)
        for hand in state.hands:
            assert len(hand) <= size
            if state.deck and state.ruleset == "base":
                assert len(hand) == size, "hands are full while the deck lasts"
    assert (0, 0) in state.board and all(c in state.board for c in GOAL_CELLS)
    if through_text:  # the whole state, also proving it is plain JSON (no tuples, no sets)
        data = json.loads(json.dumps(state.to_json()))
        assert State.from_json(data).to_json() == state.to_json()
    else:  # everything but the append-only log, which the full check covers
        data = state.to_json(include_log=False)
        assert State.from_json(data).to_json(include_log=False) == data


def check_no_leaks(state: State) -> None:
    """No seat's view holds another seat's hand or role, or a goal it may not know."""
    for seat in [None, *range(state.seats)]:
        data = view(state, seat)
        assert data["log"] is not None  # asked for with its log
        # Cards return to the box every round, so an id logged in an earlier round may
        # sit in a hand now: look only at this round's part of the log.
        starts = [i for i, e in enumerate(data["log"]) if e["type"] == "round_start"]
        text = json.dumps(dict(data, log=data["log"][starts[-1]:]))
        shown = set(QUOTED_ID.findall(text))
        for other in range(state.seats):
            if other != seat:
                assert not shown & set(state.hands[other]), f"seat {seat} sees seat {other}'s hand"
        assert data["role"] == (None if seat is None else state.roles[seat])
        # Roles of the round in progress appear only once it has ended.
        in_progress = state.phase == "play"
        for event in data["log"]:
            if event["type"] == "round_end" and in_progress:
                assert event["round"] < state.round
        # Goals: hidden while the round is in progress (but to the seat whose map showed
        # one), every one shown once it has ended (docs/RULES.md "End of a round").
        known = set() if seat is None else set(state.known_goals[seat])
        for goal in data["goals"]:
            if not goal["revealed"] and goal["goal"] not in known and in_progress:
                assert goal["status"] == "hidden"
            assert goal.get("shown", False) == (not in_progress and not goal["revealed"])
        for cell in data["board"]:
            card = cell["card"]
            if card["kind"] == "goal" and not card["revealed"]:
                index = GOAL_CELLS.index((cell["x"], cell["y"]))
                assert (card["exits"] == []) == in_progress
                if index not in known and in_progress:
                    assert card["goal"] == "hidden"
        for event in data["log"]:
            if event["type"] == "map" and event["seat"] != seat:
                assert "result" not in event
            if event["type"] == "pass" and event["seat"] != seat:
                assert "card" not in event
            if event["type"] in ("gold_pick", "payout") and event["seat"] != seat:
                assert state.finished or "value" not in event


def chain_to(x_end: int, y: int = 0, gap: int | None = None) -> dict:
    """Cards joining the start to (x_end, y) along row y (column 0 first if y != 0).

    Uses only the five crosses, two E-W tunnels and N-S tunnels, so the E-W tunnel p05
    and the N-E-S junctions p18..p21 stay free for the tests' hands.
    """
    row = iter(["p27", "p28", "p29", "p30", "p31", "p06", "p07"])
    board = {}
    if y != 0:
        step = 1 if y > 0 else -1
        for yy in range(step, y, step):
            board[(0, yy)] = (["p01", "p02", "p03", "p04"][abs(yy) - 1], False)
        board[(0, y)] = ("p17", False)  # T N-E-S: joins the column to the row
    for x in range(1, x_end + 1):
        if x != gap:
            board[(x, y)] = (next(row), False)
    return board
