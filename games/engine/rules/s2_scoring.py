"""Saboteur 2 round end (RULES.md Part 2 "End of a round and payout").

Who wins depends on the finder and on doors: the way is *open for a colour* when some
route of tunnels from the start (or a ladder) to the gold passes no door of the other
colour. Payouts are in nuggets by the number of winners; geologists are paid for
crystals; then the thieves steal, last theft played first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..board import Maze
from ..cards import GOAL_CELLS
from ..cards_s2 import BLUE, BOSS, GEOLOGIST, GREEN, PROFITEER, SABOTEUR
from ..errors import IllegalMove
from ..state import State
from ..types import Move
from .base import BaseRules

TEAM = {BLUE: "blue", GREEN: "green"}
OTHER = {"blue": "green", "green": "blue"}
SHARE = {1: 5, 2: 4, 3: 3, 4: 2}  # nuggets per winner by number of winners; 5+ -> 1
DEDUCTION = {BOSS: 1, PROFITEER: 2}


class S2Scoring(BaseRules):
    def trapped(self, state: State, seat: int) -> bool:
        return any(self.cards[c].action == "trapped" for c in state.in_front[seat])

    def way_open(self, state: State, colour: str) -> bool:
        """Some route from the start or a ladder reaches the gold through no door of the
        other colour."""
        gold = GOAL_CELLS[state.goal_kinds.index("gold")]
        blocked = OTHER[colour]
        nodes = Maze(state, self.cards).reached_nodes(lambda seg: seg.door != blocked)
        return any(cell == gold for cell, _ in nodes)

    def winning_teams(self, state: State, gold_found: bool) -> set[str]:
        if not gold_found:
            return set()
        assert state.finder is not None
        role = state.roles[state.finder]
        open_for = {c for c in ("blue", "green") if self.way_open(state, c)}
        if role in TEAM:
            team = TEAM[role]
            return {team} if team in open_for else {OTHER[team]}
        if role == GEOLOGIST:
            return set()
        if role in DEDUCTION and not open_for:
            # Boss or profiteer through doors of both colours: both teams win (the
            # Italian text's note, RULES.md Part 2).
            return {"blue", "green"}
        return open_for  # boss, profiteer or saboteur (RULES.md ruling: none when shut)

    def round_winners_s2(self, state: State, gold_found: bool) -> tuple[str, list[int]]:
        teams = self.winning_teams(state, gold_found)
        winners = []
        for seat, role in enumerate(state.roles):
            if self.trapped(state, seat):
                continue  # trapped players are never winners and count for nothing
            if (TEAM.get(role) in teams or (role == BOSS and teams) or role == PROFITEER
                    or (role == SABOTEUR and not gold_found)):
                winners.append(seat)
        label = "+".join(sorted(teams)) if teams else ("saboteurs" if not gold_found
                                                         else "nobody")
        return label, winners

    def end_round(self, state: State, gold_found: bool) -> None:
        label, winners = self.round_winners_s2(state, gold_found)
        state.log.append({"type": "round_end", "round": state.round,
                          "reason": "gold" if gold_found else "exhausted",
                          "finder": state.finder, "winners": label,
                          "winning_seats": winners, "roles": list(state.roles),
                          **self.dwarf_cards_shown(state),
                          "goals": self.goal_results(state)})
        share = SHARE.get(len(winners), 1)
        for seat in winners:
            self.pay(state, seat, max(0, share - DEDUCTION.get(state.roles[seat], 0)), "win")
        geologists = [s for s, r in enumerate(state.roles)
                      if r == GEOLOGIST and not self.trapped(state, s)]
        if geologists:
            each = self.crystals(state) // len(geologists)
            for seat in geologists:
                self.pay(state, seat, each, "crystals")
        state.extra["thieves"] = [s for s in reversed(state.extra["theft_order"])
                                  if not self.trapped(state, s)]
        self.next_thief(state)

    def dwarf_cards_shown(self, state: State) -> dict[str, list[str]]:
        return {"set_aside_roles": list(state.roles_aside),
                "discarded_roles": list(state.extra.get("hats_discarded", []))}

    def pay(self, state: State, seat: int, nuggets: int, why: str) -> None:
        state.nuggets[seat] += nuggets
        state.log.append({"type": "payout", "seat": seat, "_to": [seat], "_at_end": True,
                          "_secret": {"value": nuggets, "why": why}})

    def crystals(self, state: State) -> int:
        total = 0
        for card_id, _ in state.board.values():
            spec = self.cards.get(card_id)  # None for the goal positions
            total += spec.crystals if spec else 0
        return total

    # ---- thefts: last theft played steals first -------------------------------
    def steal_targets(self, state: State, thief: int) -> list[int]:
        """Ruling: only a player who has a nugget can be named (the thief learns that)."""
        scores = state.scores
        return [s for s in range(state.seats) if s != thief and scores[s] > 0]

    def next_thief(self, state: State) -> None:
        thieves: list[int] = state.extra["thieves"]
        while thieves:
            if self.steal_targets(state, thieves[0]):
                state.phase, state.picker = "theft", thieves[0]
                return
            state.log.append({"type": "steal", "seat": thieves.pop(0), "target": None})
        state.phase, state.picker = "play", None
        self.next_round(state)

    def legal_steal(self, state: State) -> Iterator[Move]:
        assert state.picker is not None
        for target in self.steal_targets(state, state.picker):
            yield {"type": "steal", "target": target}

    def do_steal(self, state: State, seat: int, move: Move) -> None:
        target = move["target"]
        if target not in self.steal_targets(state, seat):
            raise IllegalMove("bad_target", "Steal from another player who has a nugget.",
                              {"action": "steal", "target": target})
        state.nuggets[target] -= 1
        state.nuggets[seat] += 1
        state.log.append({"type": "steal", "seat": seat, "target": target})
        state.extra["thieves"].pop(0)
        self.next_thief(state)

    def phase_message(self, state: State) -> str:
        if state.phase == "theft":
            return "The round is over: the only move now is to steal a nugget."
        return super().phase_message(state)

    def extra_view(self, state: State, seat: int | None,
                   moderator: bool = False) -> dict[str, Any]:
        known: dict[str, str] = {}
        if seat is not None:
            start = max(i for i, e in enumerate(state.log) if e["type"] == "round_start")
            for event in state.log[start:]:
                if event["type"] == "inspection" and event["seat"] == seat:
                    known[str(event["target"])] = event["_secret"]["role"]
        data: dict[str, Any] = {"crystals": self.crystals(state),
                                "dwarves_aside": len(state.roles_aside),
                                "inspected": known}
        if moderator:
            data["theft_order"] = list(state.extra.get("theft_order", []))
            data["hats_discarded"] = list(state.extra.get("hats_discarded", []))
        return data
