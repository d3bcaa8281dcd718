"""The base game of Saboteur (docs/RULES.md Part 1) as a set of small, overridable rules.

A ruleset is a class: cards are data (`build_cards`), and each move type is a pair of
methods `legal_<type>` / `do_<type>`, so Saboteur 2 subclasses and replaces pieces
instead of testing `ruleset ==` anywhere.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import GOLD_VALUES
from ..errors import IllegalMove
from ..state import State
from ..types import Move
from .actions import ActionRules
from .core import BASE_TABLE, DIGGER, SABOTEUR, SABOTEUR_SHARE, RulesCore
from .gold import exact_payment
from .placement import PlacementRules

__all__ = ["BASE_TABLE", "DIGGER", "SABOTEUR", "SABOTEUR_SHARE", "BaseRules", "Rules",
           "RulesCore"]


class BaseRules(PlacementRules, ActionRules):
    """The whole base game: the core, placement and actions (mixins), plus turns, round
    ends and gold here."""

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
                          "roles": list(state.roles), **self.dwarf_cards_shown(state),
                          "goals": self.goal_results(state)})
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

    def goal_results(self, state: State) -> list[str]:
        """What lay under each goal, top to bottom ("gold" or "stone"): the round_end
        event shows them all (docs/RULES.md "End of a round": the table sees where the
        gold was, also when nobody reached it)."""
        return ["gold" if kind == "gold" else "stone" for kind in state.goal_kinds]

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

