"""Readable, translated words for what a view contains: cards, roles, log events, moves.

Everything here works on the JSON of `engine.view` (and `legal_moves`), never on the
state. Unknown card kinds, event types and move types fall back to a generic text,
so a new ruleset's additions show up without changes here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.types import JSON, LogEvent, Move, RoundResult
from games.game.core.aliases import stored_name
from games.kit.seat_numbers import shown_seat_of
from games.seatview.core import clock_notices
from games.seatview.core import describe_s2 as s2
from games.seatview.core.words import (
    AliasedNames,
    MoveContext,
    Names,
    card_list,
    card_name,
    catalog_card,
    cell,
    days_and_hours,
    goal_name,
    goal_result,
    outcome_label,
    played_card_name,
    plural_nuggets,
    role_name,
    role_with_article,
    seat_name,
    symmetric,
    team_name,
    tool_name,
)

__all__ = [
    "MoveContext", "Names", "card_list", "card_name", "catalog_card", "cell", "event_sentence",
    "goal_name", "goal_result", "move_label", "notice_sentence",
    "played_card_name", "plural_nuggets", "role_name", "role_with_article", "seat_name",
    "team_name", "tool_name",
]


# ---- log events ---------------------------------------------------------------------------


def event_sentence(event: LogEvent, names: Names, ruleset: str, viewer: int | None = None) -> str:
    """One log event of a view as a sentence; unknown types get a generic one.

    `viewer` is the seat whose view the event comes from (None: a spectator, a
    moderator, or not said); it only turns "Ann" into "you" where a secret is shown.
    """
    handler = _EVENTS.get(str(event.get("type")))
    who = seat_name(event.get("seat"), names)
    if handler is None:
        return _("%(who)s: %(type)s") % {"who": who, "type": event.get("type")}
    return handler(dict(event, ruleset=ruleset, viewer=viewer), who, names)


def _round_start(e: JSON, who: str, names: Names) -> str:
    return _("Round %(round)s begins; %(first)s plays first.") % {
        "round": e["round"], "first": seat_name(e.get("first"), names)}


def _place(e: JSON, who: str, names: Names) -> str:
    values = {"who": who, "card": played_card_name(e, "card", "name", e["ruleset"]),
              "cell": cell(e["x"], e["y"])}
    # Turned round only where it makes a difference: a crossroads turned is the same card.
    if e.get("rotated") and not symmetric(catalog_card(e["ruleset"], e.get("card")) or {}):
        return _("%(who)s placed %(card)s at %(cell)s, turned round.") % values
    return _("%(who)s placed %(card)s at %(cell)s.") % values


def _tool_action(e: JSON, who: str, names: Names) -> str:
    values = {"who": who, "tool": tool_name(str(e.get("tool"))),
              "target": seat_name(e.get("target"), names)}
    own = e.get("target") == e.get("seat")
    # The reader's own tool, when someone else broke or mended it: "your cart".
    yours = not own and e.get("viewer") is not None and e.get("target") == e.get("viewer")
    if e["type"] == "break":
        if own:
            return _("%(who)s broke their own %(tool)s.") % values
        if yours:
            return _("%(who)s broke your %(tool)s.") % values
        return _("%(who)s broke the %(tool)s of %(target)s.") % values
    if own:
        return _("%(who)s repaired their own %(tool)s.") % values
    if yours:
        return _("%(who)s repaired your %(tool)s.") % values
    return _("%(who)s repaired the %(tool)s of %(target)s.") % values


def _rockfall(e: JSON, who: str, names: Names) -> str:
    return _("%(who)s caused a rockfall at %(cell)s, removing %(card)s.") % {
        "who": who, "cell": cell(e["x"], e["y"]),
        "card": played_card_name(e, "removed", "removed_name", e["ruleset"])}


def _map(e: JSON, who: str, names: Names) -> str:
    text = _("%(who)s looked at the %(goal)s with a map.") % {
        "who": who, "goal": goal_name(e["goal"])}
    if "result" in e:
        text += " " + _("It showed: %(result)s.") % {"result": goal_result(e["result"])}
    return text


def _pass(e: JSON, who: str, names: Names) -> str:
    count = int(e.get("count", 0))
    if count == 0:
        return _("%(who)s passed without a card to discard.") % {"who": who}
    if "card" in e and "name" in e:
        return _("%(who)s passed, discarding %(card)s.") % {
            "who": who, "card": played_card_name(e, "card", "name", e["ruleset"])}
    if e.get("cards"):  # Saboteur 2: the passer's own view lists the cards
        return _("%(who)s passed, discarding %(cards)s.") % {
            "who": who, "cards": card_list(list(e["cards"]), e["ruleset"])}
    return ngettext("%(who)s passed, discarding %(n)s card face down.",
                    "%(who)s passed, discarding %(n)s cards face down.", count) % {
        "who": who, "n": count}


def _reveal(e: JSON, who: str, names: Names) -> str:
    return _("The %(goal)s at %(cell)s was turned over: %(result)s.") % {
        "goal": goal_name(e["goal"]), "cell": cell(e["x"], e["y"]),
        "result": goal_result(e["result"])}


def _round_end(e: JSON, who: str, names: Names) -> str:
    values = {"round": e["round"], "finder": seat_name(e.get("finder"), names),
              "winners": team_name(str(e.get("winners"))) + s2.winning_seats(e, names)}
    if e.get("reason") == "gold":
        text = _("Round %(round)s is over: %(finder)s reached the gold. "
                 "Winners: %(winners)s.") % values
    else:
        text = _("Round %(round)s is over: the cards ran out. Winners: %(winners)s.") % values
    goals = list(e.get("goals") or [])
    if e.get("reason") != "gold" and "gold" in goals:  # every goal is shown at the end
        text += " " + _("The gold lay under the %(goal)s.") % {
            "goal": goal_name(goals.index("gold"))}
    roles = ", ".join(f"{who}: {role}" for who, role in dwarf_cards(e, names))
    return text + " " + _("Roles: %(roles)s.") % {"roles": roles}


def dwarf_cards(result: RoundResult | JSON, names: Names) -> list[tuple[str, str]]:
    """Every dwarf card of an ended round, as (whose, role): each seat's, then the ones set
    aside and (Saboteur 2) the hats discarded by Swap your hats (RULES.md: all are shown)."""
    shown = [(seat_name(s, names), role_name(r)) for s, r in enumerate(result.get("roles", []))]
    shown += [(_("set aside"), role_name(r)) for r in result.get("set_aside_roles", [])]
    shown += [(_("discarded hat"), role_name(r)) for r in result.get("discarded_roles", [])]
    return shown


def _gold_pick(e: JSON, who: str, names: Names) -> str:
    if "value" in e:
        return _("%(who)s took a gold card worth %(gold)s.") % {
            "who": who, "gold": plural_nuggets(int(e["value"]))}
    return _("%(who)s took a gold card.") % {"who": who}


def _payout(e: JSON, who: str, names: Names) -> str:
    expansion = s2.payout(e, who)
    if expansion is not None:
        return expansion
    if "value" in e:
        return _("%(who)s was paid %(gold)s.") % {"who": who,
                                                   "gold": plural_nuggets(int(e["value"]))}
    return _("%(who)s was paid gold.") % {"who": who}


def _game_end(e: JSON, who: str, names: Names) -> str:
    winners = ", ".join(seat_name(s, names) for s in e.get("winners", []))
    return _("The game is over. Winners: %(winners)s.") % {"winners": winners}


_EVENTS: dict[str, s2.EventHandler] = {
    "round_start": _round_start, "place": _place, "break": _tool_action,
    "repair": _tool_action, "rockfall": _rockfall, "map": _map, "pass": _pass,
    "reveal": _reveal, "round_end": _round_end, "gold_pick": _gold_pick, "payout": _payout,
    "game_end": _game_end, **s2.EVENTS,
}


# ---- moves ----------------------------------------------------------------------------------


def move_label(move: Move, ctx: MoveContext, *, prefix: bool = False) -> str:
    """A legal move as a choice in a form. With `prefix`, the name of the move's card
    (one of `ctx.cards`) comes first: "Map: look at the top goal"."""
    kind = move.get("type")
    label = _MOVES.get(str(kind), _generic_move)(move, ctx)
    card = ctx.cards.get(str(move.get("card")))
    if prefix and card is not None:
        return f"{card_name(card)}: {label}"
    return label


def _place_move(m: Move, ctx: MoveContext) -> str:
    if m.get("rotated"):
        return _("place at %(cell)s, turned round") % {"cell": cell(m["x"], m["y"])}
    return _("place at %(cell)s, upright") % {"cell": cell(m["x"], m["y"])}


def _action_move(m: Move, ctx: MoveContext) -> str:
    expansion = s2.action_label(m, ctx)
    if expansion is not None:
        return expansion
    return _("on %(target)s: %(tool)s") % {
        "target": seat_name(m.get("target"), ctx.names), "tool": tool_name(str(m.get("tool")))}


def _rockfall_move(m: Move, ctx: MoveContext) -> str:
    """Named as the log names the card when it was placed: its catalog name, and
    "(turned round)" when it lies turned."""
    removed = ctx.board.get((m["x"], m["y"]))
    if not removed:
        name = "?"
    else:
        printed = catalog_card(ctx.ruleset, removed.get("id")) or removed
        name = card_name(printed)
        if removed.get("rotated") and not symmetric(printed):
            name += " " + _("(turned round)")
    return _("remove %(card)s at %(cell)s") % {"card": name, "cell": cell(m["x"], m["y"])}


def _map_move(m: Move, ctx: MoveContext) -> str:
    return _("look at the %(goal)s") % {"goal": goal_name(m["goal"])}


def _pass_move(m: Move, ctx: MoveContext) -> str:
    if "cards" in m:
        return s2.pass_label(m, ctx)
    if m.get("card") is None:
        return _("pass (no card to discard)")
    return _("discard it and pass")


def _generic_move(m: Move, ctx: MoveContext) -> str:
    details = ", ".join(f"{k}: {v}" for k, v in m.items() if k not in ("type", "seat"))
    return f"{m.get('type')} ({details})" if details else str(m.get("type"))


def gold_pick_label(value: int) -> str:
    return _("take a gold card worth %(gold)s") % {"gold": plural_nuggets(value)}


_MOVES: dict[str, s2.MoveHandler] = {
    "place": _place_move, "action": _action_move, "rockfall": _rockfall_move,
    "map": _map_move, "pass": _pass_move, **s2.MOVES,
}


# ---- neutral table lines (GameNotice) -------------------------------------------------------


# The notice parameters that hold a player's name.
NAME_PARAMS = ("name", "old", "new")


def _shown_param(value: str, seat: object, names: Names) -> str:
    """A player's name kept in a notice's parameters, as the reader sees it: through the
    table's names when they know the table's aliases (TableNames, games.game.core.aliases:
    the seat's alias while an anonymous game goes on), else as stored (a forgotten
    player's in the reader's language)."""
    if isinstance(names, AliasedNames) and isinstance(seat, int) and not isinstance(seat, bool):
        return names.stored(seat, value)
    return stored_name(value)


def notice_sentence(kind: str, params: Mapping[str, Any], names: Names) -> str:
    """A GameNotice as a sentence every seat may read: only its public parameters."""
    handler = _NOTICES.get(kind)
    seat = params.get("seat")
    params = {key: _shown_param(value, seat, names)
              if key in NAME_PARAMS and isinstance(value, str) else value
              for key, value in params.items()}
    if isinstance(names, AliasedNames) and names.hidden:  # anonymous: one alias a seat
        params["hidden"] = True
    what = handler(params, names) if handler else _("A note from the moderators")
    note = str(params.get("note") or "").rstrip(". ")
    if note:
        if note[-1] in "!?":
            return _("%(what)s: %(note)s") % {"what": what, "note": note}
        return _("%(what)s: %(note)s.") % {"what": what, "note": note}
    return _("%(what)s.") % {"what": what}


def _moderator_notice(p: Mapping[str, Any], names: Names) -> str:
    action = p.get("action")
    who = seat_name(p.get("seat"), names)
    if action == "undo":
        if p.get("first") == p.get("last"):
            return _("A moderator undid move %(first)s") % {"first": p.get("first")}
        return _("A moderator undid moves %(first)s–%(last)s") % {
            "first": p.get("first"), "last": p.get("last")}
    if action == "extend":
        hours = int(p.get("hours", 0))
        return ngettext("A moderator gave %(who)s %(n)s more hour for this turn",
                        "A moderator gave %(who)s %(n)s more hours for this turn", hours) % {
            "who": who, "n": hours}
    if action == "move":
        return _("A moderator made move %(number)s for %(who)s") % {
            "number": p.get("number"), "who": who}
    if action == "to_bot":
        return _("A moderator handed the seat of %(name)s to a bot") % {"name": p.get("name")}
    if action == "to_person":
        return _("A moderator gave the seat of %(name)s back to its player") % {
            "name": p.get("name")}
    simple = {"pause": _("A moderator paused the game"),
              "resume": _("A moderator resumed the game"),
              "cancel": _("A moderator cancelled the game")}
    return simple.get(str(action), _("A moderator stepped in"))


def _replaced_notice(p: Mapping[str, Any], names: Names) -> str:
    if p.get("hidden"):
        return _("A new player takes over seat %(seat)s (%(name)s)") % {
            "seat": shown_seat_of(p.get("seat")), "name": p.get("new")}
    return _("%(new)s takes over seat %(seat)s from %(old)s") % {
        "new": p.get("new"), "seat": shown_seat_of(p.get("seat")), "old": p.get("old")}


def _dispute_notice(p: Mapping[str, Any], names: Names) -> str:
    who = seat_name(p.get("seat"), names)
    if p.get("event") == "resolved":
        return _("A moderator resolved the dispute of %(who)s (%(outcome)s)") % {
            "who": who, "outcome": outcome_label(str(p.get("outcome")))}
    if p.get("move"):
        text = _("%(who)s filed a dispute about move %(move)s") % {"who": who,
                                                                    "move": p.get("move")}
    else:
        text = _("%(who)s filed a dispute") % {"who": who}
    return text


def _timeout_notice(p: Mapping[str, Any], names: Names) -> str:
    return _("%(who)s missed the deadline") % {"who": seat_name(p.get("seat"), names)}


def _absent_notice(p: Mapping[str, Any], names: Names) -> str:
    return _("%(who)s missed several turns in a row and is marked absent; the moderators "
             "were told") % {"who": seat_name(p.get("seat"), names)}


def _vacation_notice(p: Mapping[str, Any], names: Names) -> str:
    who = seat_name(p.get("seat"), names)
    if p.get("ended"):
        return _("%(who)s is back from vacation; their clock runs again") % {"who": who}
    hours = int(p.get("hours") or 0)
    if hours > 0:
        return _("%(who)s is on vacation for %(time)s; their clock is stopped") % {
            "who": who, "time": days_and_hours(timedelta(hours=hours))}
    return _("%(who)s is on vacation; their clock is stopped") % {"who": who}


def _seat_open_notice(p: Mapping[str, Any], names: Names) -> str:
    facts = {"name": p.get("name"), "seat": shown_seat_of(p.get("seat"))}
    if p.get("why") == "moderator":
        what = _("A moderator is looking for a new player for seat %(seat)s (%(name)s)") % facts
    elif p.get("why") == "absent":
        what = _("%(name)s has been absent, so seat %(seat)s is looking for a new "
                 "player") % facts
    else:
        what = _("%(name)s asked for someone to take over seat %(seat)s") % facts
    meanwhile = (_("the game waits for the new player") if p.get("waits")
                 else _("a bot plays the seat meanwhile"))
    return _("%(what)s; %(meanwhile)s") % {"what": what, "meanwhile": meanwhile}


def _seat_kept_notice(p: Mapping[str, Any], names: Names) -> str:
    return _("%(name)s stays in seat %(seat)s after all") % {
        "name": p.get("name"), "seat": shown_seat_of(p.get("seat"))}


def _takeover_notice(p: Mapping[str, Any], names: Names) -> str:
    if p.get("hidden"):
        return _("A new player took over seat %(seat)s (%(name)s)") % {
            "seat": shown_seat_of(p.get("seat")), "name": p.get("new")}
    return _("%(new)s took over seat %(seat)s from %(old)s") % {
        "new": p.get("new"), "seat": shown_seat_of(p.get("seat")), "old": p.get("old")}


NoticeHandler = Callable[[Mapping[str, Any], Names], str]
_NOTICES: dict[str, NoticeHandler] = {
    "moderator": _moderator_notice,
    "replaced": _replaced_notice,
    "dispute": _dispute_notice,
    "timeout": _timeout_notice,
    "absent": _absent_notice,
    "vacation": _vacation_notice,
    "seat_open": _seat_open_notice,
    "seat_kept": _seat_kept_notice,
    "takeover": _takeover_notice,
    "nudge": clock_notices.nudge_notice,
    "pause": clock_notices.pause_notice,
}
