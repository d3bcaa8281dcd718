"""Action cards on players, rockfall, map and passing (docs/RULES.md Part 1 "Action
cards" and "Passing")."""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import (
    GOAL_CELLS,
    TOOLS,
    CardSpec,
)
from ..errors import IllegalMove
from ..move_shapes import named_card
from ..state import State
from ..types import Move
from .core import RulesCore


class ActionRules(RulesCore):
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
        card = self.hand_card(state, seat, named_card(move), "action", ("break", "repair"))
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
        card = self.hand_card(state, seat, named_card(move), "action", ("rockfall",))
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
        card = self.hand_card(state, seat, named_card(move), "action", ("map",))
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

