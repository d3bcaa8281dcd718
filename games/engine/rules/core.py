"""The base game's core (docs/RULES.md Part 1): cards, setup, the public operations and
the checks every move shares. Placement and the action cards are mixins on top of it
(`placement.py`, `actions.py`); `base.py` adds turns, round ends and gold.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ..board import Maze
from ..cards import (
    GOAL_CELLS,
    GOAL_IDS,
    GOLD_VALUES,
    START,
    CardSpec,
    base_action_cards,
    base_path_cards,
    catalogue,
)
from ..errors import IllegalMove
from ..move_shapes import BOOL, INT, OPT_STR, STR, FieldSpec, parse
from ..rng import Rng
from ..state import State
from ..types import Move

DIGGER, SABOTEUR = "gold-digger", "saboteur"
# players -> (saboteurs, gold-diggers, hand size), RULES.md Part 1.
BASE_TABLE: dict[int, tuple[int, int, int]] = {
    3: (1, 3, 6), 4: (1, 4, 6), 5: (2, 4, 6), 6: (2, 5, 5),
    7: (3, 5, 5), 8: (3, 6, 4), 9: (3, 7, 4), 10: (4, 7, 4),
}
SABOTEUR_SHARE = {1: 4, 2: 3, 3: 3, 4: 2}


class RulesCore:
    name = "base"
    min_seats, max_seats = 3, 10
    rounds = 3
    default_options: dict[str, Any] = {"gold_cards": "players", "sabotaged_get_no_gold": False}
    option_choices: dict[str, tuple[Any, ...]] = {
        "gold_cards": ("players", "diggers"),
        "sabotaged_get_no_gold": (False, True),
    }
    shapes: dict[str, tuple[FieldSpec, ...]] = {
        "place": (("card", STR, True, None), ("x", INT, True, None), ("y", INT, True, None),
                  ("rotated", BOOL, False, False)),
        "action": (("card", STR, True, None), ("target", INT, True, None),
                   ("tool", STR, False, None)),
        "rockfall": (("card", STR, True, None), ("x", INT, True, None), ("y", INT, True, None)),
        "map": (("card", STR, True, None), ("goal", INT, True, None)),
        "pass": (("card", OPT_STR, False, None),),
        "pick_gold": (("card", STR, True, None),),
    }
    # Which move types each phase accepts.
    phase_moves: dict[str, tuple[str, ...]] = {
        "play": ("place", "action", "rockfall", "map", "pass"),
        "gold": ("pick_gold",),
    }

    # ---- cards ---------------------------------------------------------------
    def build_cards(self) -> list[CardSpec]:
        return base_path_cards() + base_action_cards()

    @cached_property
    def cards(self) -> dict[str, CardSpec]:
        """Every card of this ruleset (path, action and the start card) by id."""
        known = catalogue(self.build_cards())
        known[START.id] = START
        return known

    @cached_property
    def known_ids(self) -> frozenset[str]:
        """Every id a move may name: the cards, goal positions and gold cards."""
        return frozenset(self.cards) | frozenset(GOAL_IDS) | frozenset(GOLD_VALUES)

    @cached_property
    def deck_cards(self) -> list[str]:
        return [c.id for c in self.build_cards()]

    def card(self, card_id: str) -> CardSpec:
        spec = self.cards.get(card_id)
        if spec is None:
            raise IllegalMove("wrong_card", f"The card {card_id} cannot be played.",
                              {"card": card_id})
        return spec

    # ---- setup ---------------------------------------------------------------
    def check_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        merged = dict(self.default_options)
        for key, value in (options or {}).items():
            if key not in self.option_choices:
                raise ValueError(f"unknown option {key!r} for ruleset {self.name!r}")
            if value not in self.option_choices[key] or type(value) is not type(
                    self.default_options[key]):
                raise ValueError(f"option {key!r} must be one of {self.option_choices[key]}")
            merged[key] = value
        return merged

    def new_game(self, seats: int, seed: int, options: dict[str, Any] | None) -> State:
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise ValueError("seats must be an integer")
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"{self.name} needs {self.min_seats} to {self.max_seats} seats")
        state = State(ruleset=self.name, seats=seats, options=self.check_options(options),
                      rng=Rng.from_seed(seed).to_json())
        state.gold_won = [[] for _ in range(seats)]
        state.nuggets = [0] * seats
        state.gold_pile = list(GOLD_VALUES)
        self.start_round(state, first=0)
        return state

    def hand_size(self, seats: int) -> int:
        return BASE_TABLE[seats][2]

    def dwarf_cards(self, seats: int) -> list[str]:
        saboteurs, diggers, _ = BASE_TABLE[seats]
        return [SABOTEUR] * saboteurs + [DIGGER] * diggers

    def start_round(self, state: State, first: int) -> None:
        rng = Rng.from_json(state.rng)
        n = state.seats
        state.round += 1
        state.phase, state.turn = "play", first
        state.finder = state.picker = state.last_turn = None
        kinds = ["gold", "stone-nw", "stone-ne"]
        rng.shuffle(kinds)
        state.goal_kinds, state.goal_revealed = kinds, [False, False, False]
        state.board = {(0, 0): (START.id, False)}
        for cell, goal_id in zip(GOAL_CELLS, GOAL_IDS, strict=True):
            state.board[cell] = (goal_id, False)
        deck = list(self.deck_cards)
        rng.shuffle(deck)
        state.discard, state.set_aside = [], []
        dwarves = self.dwarf_cards(n)
        rng.shuffle(dwarves)
        state.roles, state.roles_aside = dwarves[:n], dwarves[n:]
        state.in_front = [[] for _ in range(n)]
        state.known_goals = [[] for _ in range(n)]
        self.deal(state, deck)
        rng.shuffle(state.gold_pile)
        state.gold_offer, state.gold_pickers = [], []
        state.rng = rng.to_json()
        state.log.append({"type": "round_start", "round": state.round, "first": first})

    def deal(self, state: State, deck: list[str]) -> None:
        size = self.hand_size(state.seats)
        state.hands = [[deck.pop() for _ in range(size)] for _ in range(state.seats)]
        state.deck = deck

    # ---- the public operations -----------------------------------------------
    def legal_moves(self, state: State) -> list[Move]:
        if state.finished:
            return []
        moves: list[Move] = []
        for kind in self.phase_moves[state.phase]:
            moves.extend(getattr(self, f"legal_{kind}")(state))
        return moves

    def apply(self, state: State, move: object) -> State:
        clean = parse(move, self.shapes, self.known_ids)
        if state.finished:
            raise IllegalMove("game_finished", "The game is over; no more moves can be made.")
        seat = state.actor
        assert seat is not None
        if clean.get("seat") is not None and clean["seat"] != seat:
            raise IllegalMove("not_your_turn", f"It is not your turn: seat {seat} is to act.",
                              {"actor": seat})
        if clean["type"] not in self.phase_moves[state.phase]:
            raise IllegalMove("wrong_phase", self.phase_message(state), {"phase": state.phase})
        new = state.copy()
        getattr(self, f"do_{clean['type']}")(new, seat, clean)
        return new

    def phase_message(self, state: State) -> str:
        if state.phase == "gold":
            return "The round is over: the only move now is to pick a gold card."
        return "That kind of move is not possible now."

    def extra_view(self, state: State, seat: int | None,
                   moderator: bool = False) -> dict[str, Any]:
        """Ruleset-specific additions to a view (Saboteur 2: inspections, thefts ...)."""
        return {}

    # ---- shared checks -------------------------------------------------------
    def take_from_hand(self, state: State, seat: int, card_id: str) -> CardSpec | None:
        if card_id not in state.hands[seat]:
            raise IllegalMove("card_not_in_hand", f"The card {card_id} is not in your hand.",
                              {"card": card_id})
        spec = self.cards.get(card_id)
        return spec if isinstance(spec, CardSpec) else None

    def hand_card(self, state: State, seat: int, card_id: str, kind: str,
                  action: tuple[str, ...] = ()) -> CardSpec:
        spec = self.take_from_hand(state, seat, card_id)
        if spec is None or spec.kind != kind or (action and spec.action not in action):
            what = "a path card" if kind == "path" else "that kind of action card"
            raise IllegalMove("wrong_card", f"The card {card_id} is not {what}.",
                              {"card": card_id, "wanted": kind})
        return spec

    def broken_tools(self, state: State, seat: int) -> list[str]:
        return [self.cards[c].tools[0] for c in state.in_front[seat]
                if self.cards[c].action == "break"]

    def dig_blocker(self, state: State, seat: int) -> IllegalMove | None:
        """Why `seat` may not place path cards now, or None."""
        broken = self.broken_tools(state, seat)
        if broken:
            return IllegalMove("tool_broken", f"You cannot build tunnels while your "
                               f"{broken[0]} is broken: repair it first.", {"tool": broken[0]})
        return None

    def check_seat(self, state: State, target: int) -> None:
        if not 0 <= target < state.seats:
            raise IllegalMove("bad_target", f"There is no seat {target} in this game.",
                              {"target": target})

    def maze(self, state: State) -> Maze:
        """The state's maze, built once per board position (legal_moves and apply on
        the same state share it; the key notices any change to the board or goals)."""
        key = state.position_key()
        cached = state.cache.get("maze")
        if cached is not None and cached[0] == key:
            maze: Maze = cached[1]
            return maze
        maze = Maze(state, self.cards)
        state.cache["maze"] = (key, maze)
        return maze


    # ---- defined by BaseRules (turns and round ends), used by the move mixins ----
    def end_turn(self, state: State, seat: int, draws: int = 1) -> None:
        raise NotImplementedError

    def end_round(self, state: State, gold_found: bool) -> None:
        raise NotImplementedError
