"""The move forms of a seat page, built from exactly what `legal_moves` offers.

Each card in the hand gets one form: a select of every legal move using that card,
grouped by kind (place, play on a player, rockfall, map, discard). Moves that use no
single hand card (gold picks, a pass with an empty hand, future move types with
several cards) are offered as a list of radio buttons with readable labels. The
value of every option is the move itself as JSON, so a new move type works without
changing this page.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from . import describe, drawing

JSON = dict[str, Any]

GROUPS = {
    "place": lambda: _("Place it in the maze"),
    "action": lambda: _("Play it on a player"),
    "rockfall": lambda: _("Remove a path card"),
    "map": lambda: _("Look at a goal"),
    "pass": lambda: _("Pass"),
}


def move_value(move: Mapping[str, Any]) -> str:
    """The canonical JSON of a move, used as a form value."""
    return json.dumps(dict(move), sort_keys=True, separators=(",", ":"))


@dataclass
class Choice:
    value: str
    label: str
    cell: str = ""  # "x,y" when the move targets a maze cell (for the script)


@dataclass
class Group:
    label: str
    choices: list[Choice] = field(default_factory=list)


@dataclass
class HandCard:
    card: JSON
    name: str
    svg: SafeString | None
    groups: list[Group] = field(default_factory=list)

    @property
    def playable(self) -> bool:
        return any(g.choices for g in self.groups)

    @property
    def cells(self) -> str:
        return " ".join(sorted({c.cell for g in self.groups for c in g.choices if c.cell}))


@dataclass
class MoveForms:
    hand: list[HandCard]
    other: list[Choice]

    @property
    def any(self) -> bool:
        return bool(self.other) or any(card.playable for card in self.hand)


def build(view: JSON, legal: list[JSON], names: Mapping[int, str]) -> MoveForms:
    board = {(c["x"], c["y"]): c["card"] for c in view["board"]}
    hand = {card["id"]: card for card in view["hand"]}
    panels = {card_id: HandCard(card=card, name=describe.card_name(card),
                                svg=drawing.card_svg(card) if card.get("segments") else None)
              for card_id, card in hand.items()}
    gold = {g["id"]: g["value"] for g in view.get("gold_offer", [])}
    other: list[Choice] = []
    for move in legal:
        choice = Choice(move_value(move), describe.move_label(move, names, board),
                        _cell_of(move))
        card_id = move.get("card")
        kind = str(move.get("type"))
        if isinstance(card_id, str) and card_id in panels and kind in GROUPS:
            _group(panels[card_id], kind).choices.append(choice)
        else:
            if kind == "pick_gold" and card_id in gold:
                choice.label = describe.gold_pick_label(gold[card_id])
            else:
                choice.label = describe.move_label(move, names, board, with_card=hand)
            other.append(choice)
    return MoveForms(hand=list(panels.values()), other=other)


def _group(panel: HandCard, kind: str) -> Group:
    label = GROUPS[kind]()
    for group in panel.groups:
        if group.label == label:
            return group
    group = Group(label)
    panel.groups.append(group)
    return group


def _cell_of(move: Mapping[str, Any]) -> str:
    x, y = move.get("x"), move.get("y")
    if isinstance(x, int) and isinstance(y, int):
        return f"{x},{y}"
    return ""
