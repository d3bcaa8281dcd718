"""The base game of Saboteur (RULES.md Part 1) as a set of small, overridable rules.

A ruleset is a class: cards are data (`build_cards`), and each move type is a pair of
methods `legal_<type>` / `do_<type>`, so Saboteur 2 subclasses and replaces pieces
instead of testing `ruleset ==` anywhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import Any

from ..board import Maze, Slot, edge_error
from ..cards import (
    GOAL_CELLS,
    GOAL_IDS,
    GOLD_VALUES,
    START,
    TOOLS,
    CardSpec,
    base_action_cards,
    base_path_cards,
    catalogue,
)
from ..errors import IllegalMove
from ..geometry import DIRECTIONS, E, N, W, neighbour, rotate180
from ..moves import BOOL, INT, OPT_STR, STR, FieldSpec, Move, parse
from ..rng import Rng
from ..state import State
from .gold import exact_payment

DIGGER, SABOTEUR = "gold-digger", "saboteur"
# players -> (saboteurs, gold-diggers, hand size), RULES.md Part 1.
BASE_TABLE: dict[int, tuple[int, int, int]] = {
    3: (1, 3, 6), 4: (1, 4, 6), 5: (2, 4, 6), 6: (2, 5, 5),
    7: (3, 5, 5), 8: (3, 6, 4), 9: (3, 7, 4), 10: (4, 7, 4),
}
SABOTEUR_SHARE = {1: 4, 2: 3, 3: 3, 4: 2}


class BaseRules:
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

    # ---- placing path cards --------------------------------------------------
    def fit_error(self, state: State, seat: int, slot: Slot, card: CardSpec,
                  rotated: bool) -> IllegalMove | None:
        exits = card.oriented_exits(rotated)
        mismatch = edge_error(slot, exits)
        if mismatch:
            return mismatch
        if not exits & slot.live:
            return IllegalMove("no_connection", "That card would not be joined to the start "
                               "card by an unbroken tunnel.")
        return None

    def fits(self, state: State, seat: int, slot: Slot, card: CardSpec, rotated: bool) -> bool:
        """Fast form of `fit_error(...) is None` for the move generator (bitmasks only)."""
        exits = card.oriented_exits(rotated)
        return exits & slot.must == slot.need and bool(exits & slot.live)

    def mask_fit_only(self, card: CardSpec) -> bool:
        """True when the edge bitmasks alone decide where `card` fits (see `fits`)."""
        return True

    def legal_place(self, state: State) -> Iterator[Move]:
        seat = state.turn
        if self.dig_blocker(state, seat):
            return
        paths = [self.cards[c] for c in state.hands[seat] if self.cards[c].kind == "path"]
        if not paths:
            return
        slots = [(s, s.cell[0], s.cell[1], s.must, s.need, s.live)
                 for s in self.maze(state).slots()]
        for card in paths:
            for rotated in (False, True):
                if self.mask_fit_only(card):
                    # The hot loop of the move generator: `fits` inlined as two bit tests.
                    exits = card.oriented_exits(rotated)
                    for _, x, y, must, need, live in slots:
                        if exits & must == need and exits & live:
                            yield {"type": "place", "card": card.id, "x": x, "y": y,
                                   "rotated": rotated}
                    continue
                for slot, x, y, _, _, _ in slots:
                    if self.fits(state, seat, slot, card, rotated):
                        yield {"type": "place", "card": card.id, "x": x, "y": y,
                               "rotated": rotated}

    def do_place(self, state: State, seat: int, move: Move) -> None:
        card = self.hand_card(state, seat, move["card"], "path")
        blocker = self.dig_blocker(state, seat)
        if blocker:
            raise blocker
        cell = (move["x"], move["y"])
        maze = self.maze(state)
        if cell in maze.cells:
            raise IllegalMove("cell_occupied",
                              f"There is already a card at ({cell[0]}, {cell[1]}).",
                              {"x": cell[0], "y": cell[1]})
        if not maze.touches(cell):
            raise IllegalMove("not_adjacent", "A card must be placed next to a card already in "
                              "the maze.")
        error = self.fit_error(state, seat, maze.slot(cell), card, move["rotated"])
        if error:
            raise error
        state.hands[seat].remove(card.id)
        state.board[cell] = (card.id, move["rotated"])
        state.log.append({"type": "place", "seat": seat, "card": card.id, "name": card.name,
                          "x": cell[0], "y": cell[1], "rotated": move["rotated"]})
        if self.reveal_goals(state, cell):
            state.finder = seat
            state.last_turn = seat
            self.end_round(state, gold_found=True)
            return
        self.end_turn(state, seat)

    def reveal_goals(self, state: State, placed: tuple[int, int]) -> bool:
        """Turn over every face-down goal a tunnel now runs into; True if gold was found.

        Repeats until nothing changes: a turned stone becomes part of the maze and may
        carry the tunnel on (RULES.md ruling: reconnecting a cut branch counts too).
        """
        gold = False
        changed = self.goal_touched(state)
        while changed:
            changed = False
            maze = Maze(state, self.cards)
            for index, cell in enumerate(GOAL_CELLS):
                if state.goal_revealed[index]:
                    continue
                arriving = maze.arriving(cell)
                if not arriving:
                    continue
                kind = state.goal_kinds[index]
                rotated = self.stone_rotation(kind, arriving, placed, cell)
                state.goal_revealed[index] = True
                state.board[cell] = (GOAL_IDS[index], rotated)
                state.log.append({"type": "reveal", "goal": index, "x": cell[0], "y": cell[1],
                                  "result": "gold" if kind == "gold" else "stone",
                                  "rotated": rotated})
                gold = gold or kind == "gold"
                changed = True
                break  # rebuild the maze with the turned card before looking further
        return gold

    def goal_touched(self, state: State) -> bool:
        """Cheap pre-check: does any card's exit face a face-down goal at all?"""
        for index, cell in enumerate(GOAL_CELLS):
            if state.goal_revealed[index]:
                continue
            for direction in DIRECTIONS:
                entry = state.board.get(neighbour(cell, direction))
                if entry is None or entry[0].startswith("goal-"):
                    continue
                spec = self.cards[entry[0]]
                if spec.oriented_exits(entry[1]) & rotate180(direction):
                    return True
        return False

    @staticmethod
    def stone_rotation(kind: str, arriving: int, placed: tuple[int, int],
                       goal: tuple[int, int]) -> bool:
        """Orientation of a turned goal: a tunnel on the edge the tunnel arrived from.

        Ruling (not in RULES.md): when tunnels arrive on two edges that no single
        orientation both fits, the edge facing the card just placed wins; otherwise
        the orientation with more matching edges, then the printed one.
        """
        if kind == "gold":
            return False
        printed = N | (W if kind == "stone-nw" else E)
        turned = rotate180(printed)
        facing = next((d for d in DIRECTIONS if neighbour(goal, d) == placed), 0)
        if facing & arriving:
            return not printed & facing
        return bin(turned & arriving).count("1") > bin(printed & arriving).count("1")

    # ---- action cards on players ---------------------------------------------
    def legal_action(self, state: State) -> Iterator[Move]:
        seat = state.turn
        for card_id in state.hands[seat]:
            card = self.cards[card_id]
            if card.kind != "action":
                continue
            for target in range(state.seats):
                for tool in card.tools:
                    if card.action == "break" and tool not in self.broken_tools(state, target):
                        yield {"type": "action", "card": card_id, "target": target, "tool": tool}
                    if card.action == "repair" and tool in self.broken_tools(state, target):
                        yield {"type": "action", "card": card_id, "target": target, "tool": tool}

    def do_action(self, state: State, seat: int, move: Move) -> None:
        card = self.hand_card(state, seat, move["card"], "action", ("break", "repair"))
        target = move["target"]
        self.check_seat(state, target)
        tool = self.chosen_tool(state, card, target, move.get("tool"))
        broken = self.broken_tools(state, target)
        who = "you" if target == seat else f"seat {target}"
        state.hands[seat].remove(card.id)
        if card.action == "break":
            if tool in broken:
                raise IllegalMove("already_broken", f"The {tool} of {who} is already broken.",
                                  {"tool": tool, "target": target, "self": target == seat})
            state.in_front[target].append(card.id)
        else:
            if tool not in broken:
                raise IllegalMove("nothing_to_repair", f"The {tool} of {who} is not broken.",
                                  {"tool": tool, "target": target, "self": target == seat})
            victim = next(c for c in state.in_front[target] if self.cards[c].tools == (tool,)
                          and self.cards[c].action == "break")
            state.in_front[target].remove(victim)
            state.discard.extend([card.id, victim])
        state.log.append({"type": card.action, "seat": seat, "card": card.id, "name": card.name,
                          "target": target, "tool": tool})
        self.end_turn(state, seat)

    def chosen_tool(self, state: State, card: CardSpec, target: int, tool: str | None) -> str:
        if tool is not None:
            if tool not in TOOLS:
                raise IllegalMove("bad_tool", f'"{tool}" is not a tool: use pickaxe, lantern '
                                  "or cart.", {"tool": tool})
            if tool not in card.tools:
                raise IllegalMove("tool_mismatch", f"The card {card.name} does not act on the "
                                  f"{tool}.", {"card": card.id, "tool": tool})
            return tool
        if len(card.tools) == 1:
            return card.tools[0]
        fixable = [t for t in card.tools if t in self.broken_tools(state, target)]
        if len(fixable) == 1:
            return fixable[0]
        raise IllegalMove("tool_required", f"Say which tool the {card.name} card repairs.",
                          {"card": card.id})

    # ---- rockfall and map ----------------------------------------------------
    def legal_rockfall(self, state: State) -> Iterator[Move]:
        seat = state.turn
        rockfalls = [c for c in state.hands[seat] if self.cards[c].action == "rockfall"]
        if not rockfalls:
            return
        cells = [cell for cell, (card_id, _) in state.board.items() if self.removable(card_id)]
        for card_id in rockfalls:
            for x, y in cells:
                yield {"type": "rockfall", "card": card_id, "x": x, "y": y}

    def removable(self, card_id: str) -> bool:
        spec = self.cards.get(card_id)
        return isinstance(spec, CardSpec) and spec.kind == "path"

    def do_rockfall(self, state: State, seat: int, move: Move) -> None:
        card = self.hand_card(state, seat, move["card"], "action", ("rockfall",))
        cell = (move["x"], move["y"])
        if cell not in state.board:
            raise IllegalMove("nothing_there", f"There is no card at ({cell[0]}, {cell[1]}).",
                              {"x": cell[0], "y": cell[1]})
        removed, _ = state.board[cell]
        if not self.removable(removed):
            raise IllegalMove("not_removable", "A rockfall cannot remove the start card or a "
                              "goal card.")
        del state.board[cell]
        state.hands[seat].remove(card.id)
        state.discard.extend([card.id, removed])
        state.log.append({"type": "rockfall", "seat": seat, "card": card.id, "name": card.name,
                          "x": cell[0], "y": cell[1], "removed": removed,
                          "removed_name": self.cards[removed].name})
        self.end_turn(state, seat)

    def legal_map(self, state: State) -> Iterator[Move]:
        seat = state.turn
        hidden = [i for i, shown in enumerate(state.goal_revealed) if not shown]
        for card_id in state.hands[seat]:
            if self.cards[card_id].action == "map":
                for goal in hidden:
                    yield {"type": "map", "card": card_id, "goal": goal}

    def do_map(self, state: State, seat: int, move: Move) -> None:
        card = self.hand_card(state, seat, move["card"], "action", ("map",))
        goal = move["goal"]
        if not 0 <= goal < len(GOAL_CELLS):
            raise IllegalMove("bad_goal", "Goals are numbered 0 (top), 1 (middle), 2 (bottom).")
        if state.goal_revealed[goal]:
            raise IllegalMove("goal_revealed", "That goal is already face up: look at a "
                              "face-down one.")
        state.hands[seat].remove(card.id)
        state.discard.append(card.id)
        if goal not in state.known_goals[seat]:
            state.known_goals[seat].append(goal)
        result = "gold" if state.goal_kinds[goal] == "gold" else "stone"
        state.log.append({"type": "map", "seat": seat, "card": card.id, "name": card.name,
                          "goal": goal, "_to": [seat], "_secret": {"result": result}})
        self.end_turn(state, seat)

    # ---- passing -------------------------------------------------------------
    def legal_pass(self, state: State) -> Iterator[Move]:
        hand = state.hands[state.turn]
        if not hand:
            yield {"type": "pass", "card": None}
        for card_id in hand:
            yield {"type": "pass", "card": card_id}

    def do_pass(self, state: State, seat: int, move: Move) -> None:
        card_id = move.get("card")
        if card_id is None:
            if state.hands[seat]:
                raise IllegalMove("must_discard", "To pass you must put one card from your "
                                  "hand face down on the discard pile.")
            state.log.append({"type": "pass", "seat": seat, "count": 0})
        else:
            self.take_from_hand(state, seat, card_id)
            state.hands[seat].remove(card_id)
            state.discard.append(card_id)
            state.log.append({"type": "pass", "seat": seat, "count": 1, "_to": [seat],
                              "_secret": {"card": card_id, "name": self.cards[card_id].name}})
        self.end_turn(state, seat)

    # ---- turn order and round end --------------------------------------------
    def end_turn(self, state: State, seat: int, draws: int = 1) -> None:
        """After a turn: draw (while the pile lasts), end the round or pass the turn on."""
        state.last_turn = seat
        for _ in range(draws):
            if state.deck:
                state.hands[seat].append(state.deck.pop())
        if self.exhausted(state):
            self.end_round(state, gold_found=False)
            return
        state.turn = (seat + 1) % state.seats

    def exhausted(self, state: State) -> bool:
        """RULES.md Part 1: the draw pile is empty and no player holds a card."""
        return not state.deck and not any(state.hands)

    def end_round(self, state: State, gold_found: bool) -> None:
        winners = self.round_winners(state, gold_found)
        state.log.append({"type": "round_end", "round": state.round,
                          "reason": "gold" if gold_found else "exhausted",
                          "finder": state.finder, "winners": winners,
                          "roles": list(state.roles), **self.dwarf_cards_shown(state)})
        if gold_found:
            self.offer_gold(state)
            if state.phase == "gold":
                return
        else:
            self.pay_saboteurs(state)
        self.next_round(state)

    def dwarf_cards_shown(self, state: State) -> dict[str, list[str]]:
        """RULES.md Part 1 "End of a round": every dwarf card is shown, the players' and
        the ones set aside (Saboteur 2 adds the hats discarded by Swap your hats). Only
        the round_end event carries them, so no view holds them before the round ends."""
        return {"set_aside_roles": list(state.roles_aside), "discarded_roles": []}

    def round_winners(self, state: State, gold_found: bool) -> str:
        if gold_found:
            return "gold-diggers"
        return "saboteurs" if SABOTEUR in state.roles else "nobody"

    def next_round(self, state: State) -> None:
        assert state.last_turn is not None
        if state.round >= self.rounds:
            self.finish(state)
        else:
            self.start_round(state, first=(state.last_turn + 1) % state.seats)

    def finish(self, state: State) -> None:
        state.phase = "finished"
        state.picker = None
        scores = state.scores
        best = max(scores)
        state.log.append({"type": "game_end", "scores": scores,
                          "winners": [s for s, v in enumerate(scores) if v == best]})

    # ---- gold ----------------------------------------------------------------
    def gold_eligible(self, state: State, seat: int) -> bool:
        if state.roles[seat] != DIGGER:
            return False
        return not (state.options["sabotaged_get_no_gold"] and self.broken_tools(state, seat))

    def offer_gold(self, state: State) -> None:
        """Draw the gold cards and hand the first pick out (RULES.md: finder, then
        counter-clockwise, i.e. descending seat order, round the gold-diggers)."""
        n = state.seats
        eligible = [s for s in range(n) if self.gold_eligible(state, s)]
        if state.options["gold_cards"] == "diggers":
            count = sum(1 for role in state.roles if role == DIGGER)
        else:
            count = n
        count = min(count, 9, len(state.gold_pile))
        if not eligible or count == 0:
            return
        state.gold_offer = [state.gold_pile.pop() for _ in range(count)]
        state.gold_pickers = eligible
        assert state.finder is not None
        state.picker = self.next_picker(state, state.finder, include_self=True)
        state.phase = "gold"

    def next_picker(self, state: State, seat: int, include_self: bool) -> int:
        n = state.seats
        start = 0 if include_self else 1
        for step in range(start, n + 1):
            candidate = (seat - step) % n
            if candidate in state.gold_pickers:
                return candidate
        raise AssertionError("no eligible gold picker")

    def legal_pick_gold(self, state: State) -> Iterator[Move]:
        for card_id in state.gold_offer:
            yield {"type": "pick_gold", "card": card_id}

    def do_pick_gold(self, state: State, seat: int, move: Move) -> None:
        card_id = move["card"]
        if card_id not in state.gold_offer:
            raise IllegalMove("not_offered", f"The gold card {card_id} is not among the cards "
                              "left to pick.", {"card": card_id})
        state.gold_offer.remove(card_id)
        state.gold_won[seat].append(card_id)
        state.log.append({"type": "gold_pick", "seat": seat, "_to": [seat], "_at_end": True,
                          "_secret": {"card": card_id, "value": GOLD_VALUES[card_id]}})
        if state.gold_offer:
            state.picker = self.next_picker(state, seat, include_self=False)
            return
        state.picker = None
        state.gold_pickers = []
        self.next_round(state)

    def pay_saboteurs(self, state: State) -> None:
        """Saboteurs' share, paid in seat order from the gold pile (RULES.md ruling)."""
        saboteurs = [s for s, role in enumerate(state.roles) if role == SABOTEUR]
        if not saboteurs:
            return
        share = SABOTEUR_SHARE[len(saboteurs)]
        for seat in saboteurs:
            cards = exact_payment(state.gold_pile, share)
            for card_id in cards:
                state.gold_pile.remove(card_id)
            state.gold_won[seat].extend(cards)
            state.log.append({"type": "payout", "seat": seat, "_to": [seat], "_at_end": True,
                              "_secret": {"cards": cards,
                                          "value": sum(GOLD_VALUES[c] for c in cards)}})


Rules = BaseRules
