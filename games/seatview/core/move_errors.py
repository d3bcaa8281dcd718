"""The engine's move errors in the player's language.

The engine explains a refused move in English and adds `code` and `params` (the side,
tool, seat or card it is about). Here each code gets a translatable sentence; a code we
do not know yet falls back to the engine's English message, so a new rule never shows
an empty error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.kit.seat_numbers import shown_seat_of
from games.seatview.core.describe import card_name, catalog_card, tool_name

Params = Mapping[str, Any]

SIDES: dict[str, Callable[[], str]] = {
    "north": lambda: _("north"), "east": lambda: _("east"),
    "south": lambda: _("south"), "west": lambda: _("west"),
}


def _side(params: Params) -> str:
    word = str(params.get("side", ""))
    return SIDES[word]() if word in SIDES else word


def _card(ruleset: str, params: Params) -> str:
    card = catalog_card(ruleset, params.get("card"))
    return card_name(card) if card else str(params.get("card", "?"))


def _edges(ruleset: str, p: Params) -> str:
    if p.get("card_has") == "tunnel":
        return _("That card has a tunnel on its %(side)s side, but the card to its %(side)s "
                 "has a wall there.") % {"side": _side(p)}
    return _("That card has a wall on its %(side)s side, but the card to its %(side)s has "
             "a tunnel there.") % {"side": _side(p)}


def _tool_state(*, broken: bool) -> Callable[[str, Params], str]:
    def explain(ruleset: str, p: Params) -> str:
        tool = tool_name(str(p.get("tool", "")))
        if p.get("self"):
            return (_("Your %(tool)s is already broken.") if broken
                    else _("Your %(tool)s is not broken.")) % {"tool": tool}
        values = {"tool": tool, "seat": shown_seat_of(p.get("target"))}
        return (_("The %(tool)s of seat %(seat)s is already broken.") if broken
                else _("The %(tool)s of seat %(seat)s is not broken.")) % values
    return explain


def _phase(ruleset: str, p: Params) -> str:
    if p.get("phase") == "gold":
        return _("The round is over: the only move now is to pick a gold card.")
    if p.get("phase") == "theft":
        return _("The round is over: the only move now is to steal a nugget.")
    return _("That kind of move is not possible now.")


def _bad_target(ruleset: str, p: Params) -> str:
    messages = {
        "theft": _("A theft is played in front of yourself, once, and not while trapped."),
        "hands_off": _("Hands off needs a player with a theft card in front of them."),
        "swap_hand": _("Swap your hand with another player, not yourself."),
        "inspection": _("Inspect another player's dwarf card, not your own."),
        "swap_hats": _("No dwarf cards are left aside to swap hats with."),
        "trapped": _("That player is already trapped."),
        "free_at_last": _("That player is not trapped."),
        "steal": _("Steal from another player who has a nugget."),
    }
    action = str(p.get("action", ""))
    if action in messages:
        return messages[action]
    return _("There is no seat %(seat)s in this game.") % {"seat": p.get("target")}


def _card_count(ruleset: str, p: Params) -> str:
    if p.get("low") == p.get("high"):
        return _("Discard exactly %(n)s cards.") % {"n": p.get("low")}
    return _("Discard %(low)s to %(high)s cards.") % {"low": p.get("low"), "high": p.get("high")}


EXPLAIN: dict[str, Callable[[str, Params], str]] = {
    "edges_mismatch": _edges,
    "no_connection": lambda r, p: _("That card would not be joined to the start card by an "
                                    "unbroken tunnel."),
    "cell_occupied": lambda r, p: _("There is already a card at (%(x)s, %(y)s).") % p,
    "not_adjacent": lambda r, p: _("A card must be placed next to a card already in the "
                                   "maze."),
    "tool_broken": lambda r, p: _("You cannot build tunnels while your %(tool)s is broken: "
                                  "repair it first.") % {"tool": tool_name(str(p.get("tool")))},
    "trapped": lambda r, p: _("You are trapped: you cannot build tunnels until someone "
                              "frees you."),
    "wrong_team": lambda r, p: (_("Only a blue gold-digger may place a blue door.")
                                if p.get("colour") == "blue" else
                                _("Only a green gold-digger may place a green door.")),
    "ladder_near_goal": lambda r, p: _("A ladder cannot be placed next to a goal card."),
    "ladder_unconnected": lambda r, p: _("A ladder must have a tunnel meeting a tunnel of a "
                                         "card next to it."),
    "not_your_turn": lambda r, p: _("It is not your turn: seat %(seat)s is to act.") % {
        "seat": shown_seat_of(p.get("actor"))},
    "wrong_phase": _phase,
    "game_finished": lambda r, p: _("The game is over; no more moves can be made."),
    "card_not_in_hand": lambda r, p: _("The card %(card)s is not in your hand.") % {
        "card": _card(r, p)},
    "wrong_card": lambda r, p: _("The card %(card)s cannot be played that way.") % {
        "card": _card(r, p)},
    "bad_target": _bad_target,
    "bad_tool": lambda r, p: _("That is not a tool: use pickaxe, lantern or cart."),
    "tool_mismatch": lambda r, p: _("The card %(card)s does not act on that tool.") % {
        "card": _card(r, p)},
    "tool_required": lambda r, p: _("Say which tool the %(card)s card repairs.") % {
        "card": _card(r, p)},
    "already_broken": _tool_state(broken=True),
    "nothing_to_repair": _tool_state(broken=False),
    "nothing_there": lambda r, p: _("There is no card at (%(x)s, %(y)s).") % p,
    "not_removable": lambda r, p: _("A rockfall cannot remove the start card or a goal "
                                    "card."),
    "bad_goal": lambda r, p: _("Goals are numbered 0 (top), 1 (middle), 2 (bottom)."),
    "goal_revealed": lambda r, p: _("That goal is already face up: look at a face-down "
                                    "one."),
    "must_discard": lambda r, p: _("To pass you must put one card from your hand face down "
                                   "on the discard pile."),
    "card_count": _card_count,
    "not_in_front": lambda r, p: _("You can only free yourself of a card lying in front of "
                                   "you."),
    "not_offered": lambda r, p: _("That gold card is not among the cards left to pick."),
    "off_script": lambda r, p: _("This is a lesson: every move of its first round is set. "
                                 "Make the move its guide shows."),
    "not_an_object": lambda r, p: _("A move must be a JSON object."),
    "missing_type": lambda r, p: _('A move needs a "type" such as "place" or "pass".'),
    "unknown_move_type": lambda r, p: _('There is no move of type "%(type)s" here.') % p,
    "missing_field": lambda r, p: _('A "%(type)s" move needs the field "%(field)s".') % p,
    "bad_field": lambda r, p: _('The field "%(field)s" of a "%(type)s" move has the wrong '
                                "type.") % p,
    "unknown_field": lambda r, p: _('A "%(type)s" move has no field "%(field)s".') % p,
    "unknown_card": lambda r, p: _('There is no card "%(card)s" in this game.') % p,
}


def explain(error: engine.IllegalMove, ruleset: str) -> str:
    """The error in the active language; the engine's English if the code is new to us."""
    known = EXPLAIN.get(error.code)
    if known is None:
        return error.message
    try:
        return known(ruleset, error.params)
    except (KeyError, TypeError, ValueError):  # params not as expected: never hide the error
        return error.message
