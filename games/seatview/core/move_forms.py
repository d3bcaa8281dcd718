"""The move forms of a seat page, built from exactly what `legal_moves` offers.

Each card in the hand gets one form: a select of every legal move using that card,
grouped by kind (place, play on a player, rockfall, map, discard). Moves that use no
single hand card (gold picks, thefts at the end of a round, a pass with an empty hand,
future move types) are offered as a list of radio buttons with readable labels. The
value of every option is the move itself as JSON, so a new move type works without
changing this page.

Saboteur 2's discards name several cards: a pass of 1 to 3 cards and "discard 2 to
remove a card in front of you". Listing every combination would be dozens of radio
buttons, so when the legal moves are exactly "any 1 to 3 of these cards" (and "any 2
of these cards with any one of those in front of you"), they are offered as
checkboxes on the hand cards and composed into the move on the server
(`games.play.doors.seat_forms.MoveForm`). Those moves stay in `other` marked `composed` (a
moderator's list shows them all).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.engine.types import CardView, Move, SeatView
from games.seatview.core import describe, drawing
from games.seatview.core.describe import MoveContext
from games.seatview.core.words import symmetric

__all__ = ["Choice", "Discard", "Group", "HandCard", "MoveForms", "build", "move_value",
           "symmetric"]

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
    cell: str = ""  # "x,y" when the move targets a maze cell or goal (for the script)
    composed: bool = False  # offered through the discard checkboxes, not as a radio


@dataclass
class Group:
    label: str
    choices: list[Choice] = field(default_factory=list)


@dataclass
class HandCard:
    card: CardView
    name: str
    svg: SafeString | None
    groups: list[Group] = field(default_factory=list)
    discardable: bool = False  # has a checkbox of the discard form

    @property
    def playable(self) -> bool:
        return any(g.choices for g in self.groups)

    @property
    def cells(self) -> str:
        return " ".join(sorted({c.cell for g in self.groups for c in g.choices if c.cell}))


@dataclass
class Discard:
    """The discard form: checkboxes on the hand cards, a pass button and/or a
    "free yourself" button with the card in front of you to remove."""

    pass_range: tuple[int, int] | None = None  # (fewest, most) cards a pass may discard
    free_count: int = 0  # cards discarded to free yourself (0: not offered)
    removable: list[Choice] = field(default_factory=list)  # value = in-front card id


@dataclass
class MoveForms:
    hand: list[HandCard]
    other: list[Choice]
    discard: Discard | None = None

    @property
    def any(self) -> bool:
        return bool(self.other) or any(card.playable for card in self.hand)

    @property
    def radios(self) -> list[Choice]:
        return [c for c in self.other if not c.composed]


def build(view: SeatView, legal: list[Move], names: Mapping[int, str]) -> MoveForms:
    board = {(c["x"], c["y"]): c["card"] for c in view["board"]}
    hand = {card["id"]: card for card in view["hand"]}
    ctx = MoveContext(names=names, board=board, cards={**_in_front(view), **hand},
                      me=view.get("seat"), ruleset=str(view.get("ruleset", "base")))
    panels = {card_id: HandCard(card=card, name=describe.card_name(card),
                                svg=drawing.card_svg(card) if card.get("segments") else None)
              for card_id, card in hand.items()}
    gold = {g["id"]: g["value"] for g in view.get("gold_offer", [])}
    goal_cells = {int(g["goal"]): f"{g['x']},{g['y']}" for g in view.get("goals", [])}
    discard, composed = _discard(legal, list(hand), ctx)
    other: list[Choice] = []
    for move in legal:
        if move.get("rotated") and symmetric(hand.get(str(move.get("card"))) or {}):
            continue  # turned round it is the same card in the same cell: offer it once
        value, cell = move_value(move), _cell_of(move, goal_cells)
        card_id = move.get("card")
        kind = str(move.get("type"))
        if isinstance(card_id, str) and card_id in panels and kind in GROUPS:
            _group(panels[card_id], kind).choices.append(
                Choice(value, describe.move_label(move, ctx), cell))
        else:
            label = (describe.gold_pick_label(gold[card_id])
                     if kind == "pick_gold" and card_id in gold
                     else describe.move_label(move, ctx, prefix=True))
            other.append(Choice(value, label, cell, composed=value in composed))
    if discard is not None:
        chosen = {card for value in composed for card in json.loads(value)["cards"]}
        for card_id in chosen:
            panels[card_id].discardable = True
    return MoveForms(hand=list(panels.values()), other=other, discard=discard)


def _in_front(view: SeatView) -> dict[str, CardView]:
    me = view.get("seat")
    return {card["id"]: card for p in view.get("players", []) if p["seat"] == me
            for card in p["in_front"]}


def _discard(legal: list[Move], hand: list[str], ctx: MoveContext) -> tuple[Discard | None,
                                                                           set[str]]:
    """The discard form, if the legal passes and frees can be composed from checkboxes,
    and the values of the moves it offers."""
    passes = {move_value(m) for m in legal if m.get("type") == "pass" and m.get("cards")}
    frees = {move_value(m) for m in legal if m.get("type") == "free"}
    form = Discard()
    composed: set[str] = set()
    pass_range = _pass_range(passes, hand)
    if pass_range is not None:
        form.pass_range = pass_range
        composed |= passes
    removable = _free_removes(frees, hand, [c for c in ctx.cards if c not in hand])
    if removable:
        form.free_count = 2
        form.removable = [Choice(r, describe.card_name(ctx.cards[r]) if r in ctx.cards else r)
                          for r in removable]
        composed |= frees
    return (form if composed else None), composed


def _pass_range(passes: set[str], hand: list[str]) -> tuple[int, int] | None:
    """(low, high) when the passes are exactly "any low to high cards of the hand"."""
    sizes = [len(json.loads(v)["cards"]) for v in passes]
    if not sizes:
        return None
    low, high = min(sizes), max(sizes)
    expected = {move_value({"type": "pass", "cards": list(c)})
                for size in range(low, high + 1) for c in combinations(hand, size)}
    return (low, high) if expected == passes else None


def _free_removes(frees: set[str], hand: list[str], in_front: list[str]) -> list[str]:
    """The removable cards (in the order they lie in front of the seat) when the frees
    are exactly "any 2 cards of the hand x any of these"."""
    named = {json.loads(v)["remove"] for v in frees}
    removes = [r for r in in_front if r in named]
    expected = {move_value({"type": "free", "cards": list(pair), "remove": r})
                for pair in combinations(hand, 2) for r in removes}
    return removes if frees and expected == frees else []


def _group(panel: HandCard, kind: str) -> Group:
    label = GROUPS[kind]()
    for group in panel.groups:
        if group.label == label:
            return group
    group = Group(label)
    panel.groups.append(group)
    return group


def _cell_of(move: Mapping[str, Any], goal_cells: Mapping[int, str]) -> str:
    """The maze cell a move is played on ("x,y"): a placement's or a rockfall's cell, a
    map's goal (so the page can light the goals and a tap on one picks it)."""
    x, y = move.get("x"), move.get("y")
    if isinstance(x, int) and isinstance(y, int):
        return f"{x},{y}"
    if move.get("type") == "map" and isinstance(move.get("goal"), int):
        return goal_cells.get(int(move["goal"]), "")
    return ""
