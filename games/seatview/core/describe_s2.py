"""Sentences and move labels for the Saboteur 2 expansion (RULES.md Part 2).

Like `games.seatview.core.describe`, these read only the events and moves of a view. A secret field
(an inspection's or a new hat's `role`, the cards of a discard) is in an event only
for the seats entitled to it, so a sentence shows what its event holds and nothing
more. `e["viewer"]` is the seat reading the log (None for spectators, moderators and
callers that do not say): it only chooses between "you" and a name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.types import JSON, CardView, Move
from games.seatview.core.words import (
    MoveContext,
    Names,
    card_list,
    card_name,
    played_card_name,
    plural_nuggets,
    role_with_article,
    seat_name,
)

EventHandler = Callable[[JSON, str, Names], str]
MoveHandler = Callable[[Move, MoveContext], str]


def _values(e: JSON, who: str, names: Names) -> dict[str, str]:
    return {"who": who, "target": seat_name(e.get("target"), names)}


def _own(e: JSON) -> bool:
    return e.get("target") == e.get("seat")


def _you(e: JSON) -> bool:
    """Whether the reader is the target (and not the one who played): "trapped you"."""
    return not _own(e) and e.get("viewer") is not None and e.get("viewer") == e.get("target")


def _theft(e: JSON, who: str, names: Names) -> str:
    return _("%(who)s put a theft card in front of themselves.") % {"who": who}


def _hands_off(e: JSON, who: str, names: Names) -> str:
    if _own(e):
        return _("%(who)s played hands off on their own theft card.") % {"who": who}
    if _you(e):
        return _("%(who)s played hands off: your theft card is gone.") % {"who": who}
    return _("%(who)s played hands off: the theft card of %(target)s is gone.") % _values(
        e, who, names)


def _swap_hand(e: JSON, who: str, names: Names) -> str:
    if _you(e):
        return _("%(who)s swapped hands with you.") % {"who": who}
    return _("%(who)s swapped hands with %(target)s.") % _values(e, who, names)


def _inspection(e: JSON, who: str, names: Names) -> str:
    values = _values(e, who, names)
    if "role" not in e:
        if _you(e):
            return _("%(who)s inspected your dwarf card.") % values
        return _("%(who)s inspected the dwarf card of %(target)s.") % values
    values["role"] = role_with_article(str(e["role"]))
    if e.get("viewer") is not None and e.get("viewer") == e.get("seat"):
        return _("You inspected %(target)s: %(role)s.") % values
    return _("%(who)s inspected %(target)s: %(role)s.") % values


def _swap_hats(e: JSON, who: str, names: Names) -> str:
    values = _values(e, who, names)
    if "role" in e:
        values["role"] = role_with_article(str(e["role"]))
        if e.get("viewer") is not None and e.get("viewer") == e.get("target"):
            if _own(e):
                return _("You swapped your own hat: you are now %(role)s.") % values
            return _("%(who)s made you swap hats: you are now %(role)s.") % values
        return _("%(who)s made %(target)s swap hats; the new hat: %(role)s.") % values
    if _own(e):
        return _("%(who)s swapped their own hat for a dwarf card set aside.") % values
    return _("%(who)s made %(target)s swap hats for a dwarf card set aside.") % values


def _trapped(e: JSON, who: str, names: Names) -> str:
    if _own(e):
        return _("%(who)s trapped themselves.") % {"who": who}
    if _you(e):
        return _("%(who)s trapped you.") % {"who": who}
    return _("%(who)s trapped %(target)s.") % _values(e, who, names)


def _free_at_last(e: JSON, who: str, names: Names) -> str:
    if _own(e):
        return _("%(who)s freed themselves.") % {"who": who}
    if _you(e):
        return _("%(who)s freed you.") % {"who": who}
    return _("%(who)s freed %(target)s.") % _values(e, who, names)


def _free(e: JSON, who: str, names: Names) -> str:
    values = {"who": who,
              "removed": played_card_name(e, "removed", "removed_name", e["ruleset"])}
    if "cards" in e:
        values["cards"] = card_list(list(e["cards"]), e["ruleset"])
        return _("%(who)s discarded %(cards)s to remove %(removed)s from in front of "
                 "them.") % values
    count = int(e.get("count", 2))
    return ngettext("%(who)s discarded %(n)s card face down to remove %(removed)s from in "
                    "front of them.",
                    "%(who)s discarded %(n)s cards face down to remove %(removed)s from in "
                    "front of them.", count) % dict(values, n=count)


def _steal(e: JSON, who: str, names: Names) -> str:
    if e.get("target") is None:
        return _("%(who)s had nobody to steal a nugget from.") % {"who": who}
    if _you(e):
        return _("%(who)s stole a nugget from you.") % {"who": who}
    return _("%(who)s stole a nugget from %(target)s.") % _values(e, who, names)


def payout(e: JSON, who: str) -> str | None:
    """A Saboteur 2 payout (`why` is "win" or "crystals"), or None for another kind."""
    if "why" not in e or "value" not in e:
        return None
    values = {"who": who, "gold": plural_nuggets(int(e["value"]))}
    if e["why"] == "crystals":
        return _("%(who)s was paid %(gold)s for the crystals in the maze.") % values
    return _("%(who)s was paid %(gold)s for winning the round.") % values


def winning_seats(e: JSON, names: Names) -> str:
    """' (Ann, Bob)': the seats paid as winners of a Saboteur 2 round, if the event says."""
    if "winning_seats" not in e:
        return ""
    seats = [seat_name(s, names) for s in e["winning_seats"]]
    return " (%s)" % (", ".join(seats) if seats else _("no one is paid"))


EVENTS: dict[str, EventHandler] = {
    "theft": _theft, "hands_off": _hands_off, "swap_hand": _swap_hand,
    "inspection": _inspection, "swap_hats": _swap_hats, "trapped": _trapped,
    "free_at_last": _free_at_last, "free": _free, "steal": _steal,
}


# ---- moves ----------------------------------------------------------------------------------


def action_label(m: Move, ctx: MoveContext) -> str | None:
    """The label of an expansion action card's move, or None for another card."""
    action = str((ctx.cards.get(str(m.get("card"))) or {}).get("action"))
    own = ctx.me is not None and m.get("target") == ctx.me
    own_labels: dict[str, Callable[[], str]] = {
        "theft": lambda: _("put it in front of yourself"),
        "hands_off": lambda: _("remove your own theft card"),
        "swap_hats": lambda: _("swap your own hat"),
        "trapped": lambda: _("trap yourself"),
        "free_at_last": lambda: _("free yourself"),
    }
    labels: dict[str, Callable[[], str]] = {
        "theft": lambda: _("put it in front of yourself"),
        "hands_off": lambda: _("remove the theft card of %(target)s"),
        "swap_hand": lambda: _("swap hands with %(target)s"),
        "inspection": lambda: _("look at the dwarf card of %(target)s"),
        "swap_hats": lambda: _("make %(target)s swap hats"),
        "trapped": lambda: _("trap %(target)s"),
        "free_at_last": lambda: _("free %(target)s"),
    }
    if own and action in own_labels:
        return own_labels[action]()
    if action not in labels:
        return None
    return labels[action]() % {"target": seat_name(m.get("target"), ctx.names)}


def _free_move(m: Move, ctx: MoveContext) -> str:
    return _("discard %(cards)s to remove %(removed)s") % {
        "cards": _named(m.get("cards") or [], ctx.cards),
        "removed": _named([m.get("remove")], ctx.cards)}


def _steal_move(m: Move, ctx: MoveContext) -> str:
    return _("steal a nugget from %(target)s") % {
        "target": seat_name(m.get("target"), ctx.names)}


def pass_label(m: Move, ctx: MoveContext) -> str:
    """A pass discarding a list of cards (`cards`, the expansion's shape)."""
    chosen = m.get("cards") or []
    if not chosen:
        return _("pass (no card to discard)")
    return _("discard %(cards)s and pass") % {"cards": _named(chosen, ctx.cards)}


def _named(ids: list[Any], cards: Mapping[str, CardView]) -> str:
    return ", ".join(card_name(cards[str(i)]) if str(i) in cards else str(i) for i in ids)


MOVES: dict[str, MoveHandler] = {"free": _free_move, "steal": _steal_move}
