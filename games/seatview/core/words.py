"""Translated words for what a view names: cards, roles, teams, goals, seats, rulesets.

Everything works on the JSON of `engine.view` (a card's structure, never its English
`name`, except as the last fallback), so every word here can be translated.
`games.seatview.core.describe` builds sentences from these words and re-exports them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.utils.timesince import TIME_STRINGS
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import engine
from games.engine.types import CardView
from games.kit.language_memo import per_language
from games.kit.seat_numbers import shown_seat
from games.seatview.core import compass

Names = Mapping[int, str]


def tool_name(tool: str) -> str:
    return {"pickaxe": _("pickaxe"), "lantern": _("lantern"), "cart": _("cart")}.get(tool, tool)


ROLES: dict[str, Callable[[], str]] = {
    "gold-digger": lambda: _("gold-digger"),
    "saboteur": lambda: _("saboteur"),
    "blue-digger": lambda: _("blue gold-digger"),
    "green-digger": lambda: _("green gold-digger"),
    "boss": lambda: _("boss"),
    "profiteer": lambda: _("profiteer"),
    "geologist": lambda: _("geologist"),
}


ROLE_HELP: dict[str, Callable[[], str]] = {
    "gold-digger": lambda: _("You win with the other gold-diggers when a tunnel reaches the "
                             "gold; the saboteurs try to stop you."),
    "saboteur": lambda: _("You win with the other saboteurs if the cards run out before "
                          "anyone reaches the gold."),
    "blue-digger": lambda: _("Blue team: you win when the gold is reached by a way that "
                             "passes no green door. Only the blue team may place blue doors."),
    "green-digger": lambda: _("Green team: you win when the gold is reached by a way that "
                              "passes no blue door. Only the green team may place green "
                              "doors."),
    "boss": lambda: _("You win with whichever team wins, but get one nugget less."),
    "profiteer": lambda: _("You always win, but get two nuggets less than the others."),
    "geologist": lambda: _("You win with no team: at the end of the round you get a nugget "
                           "for each crystal in the maze (shared with the other geologist)."),
}


def role_help(role: str | None) -> str:
    """One sentence: how this role wins (the seat page explains the player's own role)."""
    known = ROLE_HELP.get(role or "")
    return known() if known else ""


def role_name(role: str | None) -> str:
    if role is None:
        return _("unknown")
    known = ROLES.get(role)
    return known() if known else role.replace("-", " ")


def role_with_article(role: str) -> str:
    """'a saboteur', 'the boss': a role as the object of a sentence."""
    phrases = {
        "gold-digger": lambda: _("a gold-digger"), "saboteur": lambda: _("a saboteur"),
        "blue-digger": lambda: _("a blue gold-digger"),
        "green-digger": lambda: _("a green gold-digger"),
        "boss": lambda: _("the boss"), "profiteer": lambda: _("the profiteer"),
        "geologist": lambda: _("a geologist"),
    }
    known = phrases.get(role)
    return known() if known else role_name(role)


TEAMS: dict[str, Callable[[], str]] = {
    "gold-diggers": lambda: _("the gold-diggers"),
    "saboteurs": lambda: _("the saboteurs"),
    "nobody": lambda: _("nobody"),
    "blue": lambda: _("the blue gold-diggers"),
    "green": lambda: _("the green gold-diggers"),
    "blue+green": lambda: _("the blue and the green gold-diggers"),
}


def team_name(winners: str) -> str:
    known = TEAMS.get(winners)
    return known() if known else winners.replace("-", " ")


RULESETS: dict[str, Callable[[], str]] = {
    "base": lambda: _("Saboteur"),
    "saboteur2": lambda: _("Saboteur 2 (the expansion)"),
}


def ruleset_name(ruleset: str) -> str:
    known = RULESETS.get(ruleset)
    return known() if known else ruleset


def goal_name(goal: int) -> str:
    return {0: _("top goal"), 1: _("middle goal"), 2: _("bottom goal")}.get(
        goal, _("goal %(n)s") % {"n": goal}
    )


def goal_result(result: str) -> str:
    return {"gold": _("gold"), "stone": _("stone")}.get(result, result)


def seat_name(seat: int | None, names: Names) -> str:
    if seat is None:
        return _("nobody")
    return names.get(seat, _("seat %(n)s") % {"n": shown_seat(seat)})


def cell(x: int, y: int) -> str:
    return f"({x}, {y})"


def plural_nuggets(value: int) -> str:
    return ngettext("%(n)s nugget", "%(n)s nuggets", value) % {"n": value}


def days_and_hours(length: timedelta) -> str:
    """A vacation's length in days, and hours when not whole days ("7 days", "2 days,
    5 hours", "5 hours"), with Django's own translated words for them. Not in weeks (a
    budget of "1 week" reads as something else than the "7 days" the rules give), not in
    hours alone ("168 hours"); minutes are dropped, as the choices count whole hours."""
    days, hours = divmod(max(0, int(length.total_seconds() // 3600)), 24)
    parts = [TIME_STRINGS["day"] % {"num": days}] if days or not hours else []
    if hours:
        parts.append(TIME_STRINGS["hour"] % {"num": hours})
    return ", ".join(str(part) for part in parts)  # Django's ", ": kept by it, nl, es, de


# ---- cards ----------------------------------------------------------------------------------

ACTIONS: dict[str, Callable[[], str]] = {
    "rockfall": lambda: _("Rockfall"), "map": lambda: _("Map"),
    "theft": lambda: _("Theft"), "hands_off": lambda: _("Hands off"),
    "swap_hand": lambda: _("Swap your hand"), "inspection": lambda: _("Inspection"),
    "swap_hats": lambda: _("Swap your hats"), "trapped": lambda: _("Trapped"),
    "free_at_last": lambda: _("Free at last"),
}


@per_language(bound=4096)
def card_name(card: Mapping[str, Any]) -> str:
    """A card's name from its structure (so it can be translated); worked out once per card
    and language in a process (an email names the same cards many times)."""
    kind = card.get("kind")
    if kind == "path":
        return path_name(card)
    if kind == "action":
        return action_name(card)
    if kind == "start":
        return _("Start")
    return str(card.get("name") or card.get("id") or "?")


def action_name(card: Mapping[str, Any]) -> str:
    tools = " / ".join(tool_name(t) for t in card.get("tools", []))
    action = str(card.get("action"))
    if action == "break":
        return _("Broken %(tool)s") % {"tool": tools}
    if action == "repair":
        return _("Repair %(tools)s") % {"tools": tools}
    known = ACTIONS.get(action)
    return known() if known else str(card.get("name") or card.get("id") or "?")


COMPASS = "NESW"  # the order exits are named in (as the engine lists them)


def _joined(exits: list[str]) -> str:
    """Exits in the reader's letters: "E-S-W" in English, "E-S-O" in Italian."""
    return compass.letters(exits)


def _tunnel_kind(exits: list[str]) -> str:
    values = {"exits": _joined(exits)}
    if len(exits) == 2:
        if set(exits) in ({"N", "S"}, {"E", "W"}):
            return _("Tunnel %(exits)s") % values
        return _("Curve %(exits)s") % values
    if len(exits) == 3:
        return _("T-junction %(exits)s") % values
    if len(exits) == 4:
        return _("Crossroads")
    return _joined(exits)


def path_name(card: Mapping[str, Any]) -> str:
    """Tunnels, dead ends and the expansion's bridges, double curves, ladders and doors."""
    segments: list[list[str]] = card.get("segments") or []
    exits: list[str] = card.get("exits") or []
    joined = sorted((s for s in segments if len(s) > 1), key=lambda s: COMPASS.index(s[0]))
    stubs = sorted((s[0] for s in segments if len(s) == 1), key=COMPASS.index)
    if card.get("ladder"):
        name, stubs = _("Ladder %(exits)s") % {"exits": _joined(exits)}, []
    elif card.get("door"):
        door = (card.get("door_segments") or [exits])[0]
        colour = (_("Blue door %(exits)s") if card["door"] == "blue"
                  else _("Green door %(exits)s"))
        name = colour % {"exits": _joined(door)}
        stubs = [e for e in stubs if e not in door]
    elif not joined or card.get("dead_end"):
        name, stubs = _("Dead end %(exits)s") % {"exits": _joined(exits)}, []
    elif len(joined) == 2:
        straight = all(set(s) in ({"N", "S"}, {"E", "W"}) for s in joined)
        name = _("Bridge") if straight else _("Double curve %(exits)s") % {
            "exits": " / ".join(_joined(s) for s in joined)}
    else:
        name = _tunnel_kind(joined[0])
    if stubs:
        name += " " + ngettext("+ stub %(exits)s", "+ stubs %(exits)s", len(stubs)) % {
            "exits": ", ".join(compass.letter(e) for e in stubs)}
    crystals = int(card.get("crystals") or 0)
    if crystals:
        name += " " + ngettext("(%(n)s crystal)", "(%(n)s crystals)", crystals) % {
            "n": crystals}
    return name


def symmetric(card: Mapping[str, Any]) -> bool:
    """Whether the card turned round is the same card (a straight tunnel, a crossroads):
    its two placements in a cell are one and the same move for the player."""
    if not card.get("segments"):
        return False
    for key in ("segments", "door_segments"):
        sides = {frozenset(segment) for segment in card.get(key) or []}
        turned = {frozenset(compass.OPPOSITE[s] for s in segment) for segment in sides}
        if sides != turned:
            return False
    return True


def catalog_card(ruleset: str, card_id: object) -> CardView | None:
    """The public face of a card id (for cards played face up), or None."""
    spec = engine.rules_for(ruleset).cards.get(str(card_id))
    return engine.card_json(spec) if spec is not None else None


def played_card_name(event: Mapping[str, Any], key: str, name_key: str, ruleset: str) -> str:
    card = catalog_card(ruleset, event.get(key))
    return card_name(card) if card else str(event.get(name_key, "?"))


def card_list(card_ids: list[str], ruleset: str) -> str:
    """'Map, Tunnel N-S': cards named by id (for the player's own discards)."""
    return ", ".join(played_card_name({"card": c}, "card", "card", ruleset) for c in card_ids)


@dataclass(frozen=True)
class MoveContext:
    """What a move's label may name: the seat's own cards and the maze, from its view."""

    names: Names
    board: Mapping[tuple[int, int], CardView] = field(default_factory=dict)
    cards: Mapping[str, CardView] = field(default_factory=dict)  # hand and in-front cards
    me: int | None = None
    ruleset: str = "base"


# How a moderator resolved a dispute (the admin's choices, the log, the letters).
OUTCOMES = {
    "upheld": gettext_lazy("upheld: the game was put right"),
    "not_upheld": gettext_lazy("not upheld: the game stands"),
    "settled": gettext_lazy("settled otherwise"),
}


def outcome_label(code: str) -> str:
    return str(OUTCOMES.get(code, code))


def option_label(option: str) -> str:
    """A rules option as the setup page and the seat page name it (never its key)."""
    labels = {"gold_cards": _("Gold cards drawn when the gold-diggers win"),
              "sabotaged_get_no_gold": _("Players with a broken tool get gold")}
    return labels.get(option, option.replace("_", " "))


def option_value_label(option: str, value: object) -> str:
    """A rules option's value in words (never a raw True / "players")."""
    words: dict[tuple[str, object], str] = {
        ("gold_cards", "players"): _("one per player (at most 9), as printed"),
        ("gold_cards", "diggers"): _("one per gold-digger (at most 9)"),
        ("sabotaged_get_no_gold", False): _("yes, as printed"),
        ("sabotaged_get_no_gold", True): _("no: a player with a broken tool takes no gold"),
    }
    return words.get((option, value), str(value))
