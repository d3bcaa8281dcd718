"""Saboteur 2 (RULES.md Part 2): the base rules with expansion cards, roles and turns.

Moves added to the base game's:
    {"type": "pass", "cards": [ID, ...]}             1 to 3 cards face down, draw as many
                                                      ("card": ID is accepted as one card)
    {"type": "free", "cards": [ID, ID], "remove": ID} discard 2 to remove a card in front
                                                      of you; draw only 1
    {"type": "action", "card": ID, "target": SEAT}   theft (target = yourself), hands off,
                                                      swap your hand, inspection, swap your
                                                      hats, trapped, free at last
    {"type": "steal", "target": SEAT}                end-of-round theft decisions

Rulings of ours (not in RULES.md), in the docstrings where they apply: a thief may
only name a player who has a nugget (so the thief learns that much); a geologist's
crystals are split among the *untrapped* geologists; swap your hats takes the top card
of the set-aside dwarf cards, and the discarded hat leaves the round.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from ..board import Slot, edge_error
from ..cards import CardSpec
from ..cards_s2 import s2_action_cards, s2_dwarves, s2_path_cards
from ..errors import IllegalMove
from ..move_shapes import INT, LIST, OPT_STR, STR, FieldSpec, named_card
from ..state import State
from ..types import Move
from .base import BaseRules
from .s2_scoring import S2Scoring

SET_ASIDE = 10
HAND = 6
IN_FRONT_KINDS = ("theft", "trapped")  # besides broken tools, one of each per player
# Action cards the base rules play (their own move types or tool actions).
BASE_ACTIONS = frozenset({"break", "repair", "rockfall", "map"})


class Saboteur2Rules(S2Scoring):
    name = "saboteur2"
    min_seats, max_seats = 2, 12
    default_options: dict[str, Any] = {}
    option_choices: dict[str, tuple[Any, ...]] = {}
    shapes: dict[str, tuple[FieldSpec, ...]] = {
        **BaseRules.shapes,
        "pass": (("card", OPT_STR, False, None), ("cards", LIST, False, None)),
        "free": (("cards", LIST, True, None), ("remove", STR, True, None)),
        "steal": (("target", INT, True, None),),
    }
    phase_moves: dict[str, tuple[str, ...]] = {
        "play": ("place", "action", "rockfall", "map", "free", "pass"),
        "theft": ("steal",),
    }

    # ---- cards and setup -----------------------------------------------------
    def build_cards(self) -> list[CardSpec]:
        return super().build_cards() + s2_path_cards() + s2_action_cards()

    def hand_size(self, seats: int) -> int:
        return HAND

    def dwarf_cards(self, seats: int) -> list[str]:
        return s2_dwarves()

    def start_round(self, state: State, first: int) -> None:
        state.gold_pile = []  # Saboteur 2 pays in nuggets, not gold cards
        state.extra = {"theft_order": [], "hats_discarded": []}
        super().start_round(state, first)

    def deal(self, state: State, deck: list[str]) -> None:
        """The top 10 cards are set aside unseen, then 6 cards to every player."""
        state.set_aside = [deck.pop() for _ in range(SET_ASIDE)]
        super().deal(state, deck)

    # ---- who may dig, and where ------------------------------------------------
    def dig_blocker(self, state: State, seat: int) -> IllegalMove | None:
        if self.trapped(state, seat):
            return IllegalMove("trapped", "You are trapped: you cannot build tunnels until "
                               "someone frees you.")
        return super().dig_blocker(state, seat)

    def fit_error(self, state: State, seat: int, slot: Slot, card: CardSpec,
                  rotated: bool) -> IllegalMove | None:
        door = next((s.door for s in card.segments if s.door), None)
        if door and state.roles[seat] != f"{door}-digger":
            return IllegalMove("wrong_team", f"Only a {door} gold-digger may place a {door} "
                               "door.", {"colour": door})
        if not any(s.ladder for s in card.segments):
            return super().fit_error(state, seat, slot, card, rotated)
        exits = card.oriented_exits(rotated)
        mismatch = edge_error(slot, exits)
        if mismatch:
            return mismatch
        if slot.near_goal:
            return IllegalMove("ladder_near_goal", "A ladder cannot be placed next to a goal "
                               "card.")
        if not exits & slot.need:
            return IllegalMove("ladder_unconnected", "A ladder must have a tunnel meeting a "
                               "tunnel of a card next to it.")
        return None

    def mask_fit_only(self, card: CardSpec) -> bool:
        return not card.special

    def fits(self, state: State, seat: int, slot: Slot, card: CardSpec, rotated: bool) -> bool:
        if card.special:
            return self.fit_error(state, seat, slot, card, rotated) is None
        return super().fits(state, seat, slot, card, rotated)

    # ---- action cards ----------------------------------------------------------
    def in_front_of(self, state: State, seat: int, action: str) -> str | None:
        return next((c for c in state.in_front[seat] if self.cards[c].action == action), None)

    def targets(self, state: State, seat: int, action: str) -> list[int]:
        """Seats an action card may be played on now (empty: it cannot be played)."""
        seats = range(state.seats)
        if action == "theft":
            ok = not self.trapped(state, seat) and not self.in_front_of(state, seat, "theft")
            return [seat] if ok else []
        if action == "hands_off":
            return [s for s in seats if self.in_front_of(state, s, "theft")]
        if action in ("swap_hand", "inspection"):
            return [s for s in seats if s != seat]
        if action == "swap_hats":
            return list(seats) if state.roles_aside else []
        if action == "trapped":
            return [s for s in seats if not self.trapped(state, s)]
        if action == "free_at_last":
            return [s for s in seats if self.trapped(state, s)]
        return []

    def legal_action(self, state: State) -> Iterator[Move]:
        yield from super().legal_action(state)
        seat = state.turn
        for card_id in state.hands[seat]:
            action = self.cards[card_id].action
            if action and action not in BASE_ACTIONS:
                for target in self.targets(state, seat, action):
                    yield {"type": "action", "card": card_id, "target": target}

    def do_action(self, state: State, seat: int, move: Move) -> None:
        spec = self.take_from_hand(state, seat, named_card(move))
        if spec is None or spec.action is None or spec.action in BASE_ACTIONS:
            super().do_action(state, seat, move)
            return
        target = move["target"]
        self.check_seat(state, target)
        if move.get("tool") is not None:
            raise IllegalMove("tool_mismatch", f"The card {spec.name} does not name a tool.",
                              {"card": spec.id})
        if target not in self.targets(state, seat, str(spec.action)):
            raise IllegalMove("bad_target", self.target_message(state, seat, spec, target),
                              {"action": spec.action, "target": target})
        state.hands[seat].remove(spec.id)
        event: dict[str, Any] = {"type": spec.action, "seat": seat, "card": spec.id,
                                 "name": spec.name, "target": target}
        getattr(self, f"act_{spec.action}")(state, seat, spec, target, event)
        state.log.append(event)
        self.end_turn(state, seat, draws=0 if spec.action == "swap_hand" else 1)

    def target_message(self, state: State, seat: int, spec: CardSpec, target: int) -> str:
        messages = {
            "theft": "A theft is played in front of yourself, once, and not while trapped.",
            "hands_off": "Hands off needs a player with a theft card in front of them.",
            "swap_hand": "Swap your hand with another player, not yourself.",
            "inspection": "Inspect another player's dwarf card, not your own.",
            "swap_hats": "No dwarf cards are left aside to swap hats with.",
            "trapped": "That player is already trapped.",
            "free_at_last": "That player is not trapped.",
        }
        return messages[str(spec.action)]

    def act_theft(self, state: State, seat: int, spec: CardSpec, target: int,
                  event: dict[str, Any]) -> None:
        state.in_front[seat].append(spec.id)
        state.extra["theft_order"].append(seat)

    def act_hands_off(self, state: State, seat: int, spec: CardSpec, target: int,
                      event: dict[str, Any]) -> None:
        self.remove_in_front(state, target, "theft")
        state.discard.append(spec.id)

    def act_trapped(self, state: State, seat: int, spec: CardSpec, target: int,
                    event: dict[str, Any]) -> None:
        state.in_front[target].append(spec.id)

    def act_free_at_last(self, state: State, seat: int, spec: CardSpec, target: int,
                         event: dict[str, Any]) -> None:
        self.remove_in_front(state, target, "trapped")
        state.discard.append(spec.id)

    def act_swap_hand(self, state: State, seat: int, spec: CardSpec, target: int,
                      event: dict[str, Any]) -> None:
        """Hands change owners; the other player draws 1 (ruling: you draw nothing)."""
        state.hands[seat], state.hands[target] = state.hands[target], state.hands[seat]
        state.discard.append(spec.id)
        if state.deck:
            state.hands[target].append(state.deck.pop())

    def act_inspection(self, state: State, seat: int, spec: CardSpec, target: int,
                       event: dict[str, Any]) -> None:
        state.discard.append(spec.id)
        event.update({"_to": [seat], "_secret": {"role": state.roles[target]}})

    def act_swap_hats(self, state: State, seat: int, spec: CardSpec, target: int,
                      event: dict[str, Any]) -> None:
        state.discard.append(spec.id)
        state.extra["hats_discarded"].append(state.roles[target])
        state.roles[target] = state.roles_aside.pop()
        event.update({"_to": [target], "_secret": {"role": state.roles[target]}})

    def remove_in_front(self, state: State, seat: int, action: str) -> str:
        card_id = self.in_front_of(state, seat, action)
        assert card_id is not None
        state.in_front[seat].remove(card_id)
        state.discard.append(card_id)
        if action == "theft":
            state.extra["theft_order"].remove(seat)
        return card_id

    # ---- discard to free yourself, and passing -----------------------------------
    def legal_free(self, state: State) -> Iterator[Move]:
        seat = state.turn
        if not state.in_front[seat] or len(state.hands[seat]) < 2:
            return
        for pair in combinations(state.hands[seat], 2):
            for removed in state.in_front[seat]:
                yield {"type": "free", "cards": list(pair), "remove": removed}

    def do_free(self, state: State, seat: int, move: Move) -> None:
        cards = self.discards(state, seat, move["cards"], 2, 2)
        removed = move["remove"]
        if removed not in state.in_front[seat]:
            raise IllegalMove("not_in_front", "You can only free yourself of a card lying in "
                              "front of you.")
        kind = self.cards[removed].action
        if kind in IN_FRONT_KINDS:
            self.remove_in_front(state, seat, str(kind))
        else:
            self._drop(state, seat, removed)
        state.log.append({"type": "free", "seat": seat, "count": 2, "removed": removed,
                          "removed_name": self.cards[removed].name, "_to": [seat],
                          "_secret": {"cards": cards}})
        self.end_turn(state, seat, draws=1)

    def _drop(self, state: State, seat: int, card_id: str) -> None:
        state.in_front[seat].remove(card_id)
        state.discard.append(card_id)

    def legal_pass(self, state: State) -> Iterator[Move]:
        hand = state.hands[state.turn]
        if not hand:
            yield {"type": "pass", "cards": []}
        for size in (1, 2, 3):
            for chosen in combinations(hand, size):
                yield {"type": "pass", "cards": list(chosen)}

    def do_pass(self, state: State, seat: int, move: Move) -> None:
        chosen = move.get("cards")
        if chosen is None:
            card = move.get("card")
            chosen = [] if card is None else [card]
        if not chosen and not state.hands[seat]:
            state.log.append({"type": "pass", "seat": seat, "count": 0})
            self.end_turn(state, seat, draws=0)
            return
        cards = self.discards(state, seat, chosen, 1, 3)
        state.log.append({"type": "pass", "seat": seat, "count": len(cards), "_to": [seat],
                          "_secret": {"cards": cards}})
        self.end_turn(state, seat, draws=len(cards))

    def discards(self, state: State, seat: int, cards: list[str], low: int,
                 high: int) -> list[str]:
        if not low <= len(cards) <= high:
            what = "exactly 2 cards" if low == high else f"{low} to {high} cards"
            raise IllegalMove("card_count", f"Discard {what}.", {"low": low, "high": high})
        for card_id in cards:
            self.take_from_hand(state, seat, card_id)
        for card_id in cards:
            state.hands[seat].remove(card_id)
            state.discard.append(card_id)
        return list(cards)

    def exhausted(self, state: State) -> bool:
        """RULES.md Part 2: EXHAUSTION is when no player holds a card."""
        return not any(state.hands)
