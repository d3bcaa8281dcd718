"""The "How to play" pages (one per ruleset): what a player without the box needs to learn
the game, with every number taken from the engine (who gets which dwarf cards, hand
sizes, how gold is shared) and every card of the deck drawn as the maze draws it and
named as the game names it, counted."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games import engine
from games.engine.cards import GOAL_CONTENTS, START
from games.engine.cards_s2 import S2_DWARVES
from games.engine.rules.core import BASE_TABLE, SABOTEUR_SHARE
from games.engine.rules.s2_scoring import DEDUCTION, SHARE
from games.engine.rules.saboteur2 import HAND, SET_ASIDE
from games.seatview.core import describe, drawing


@dataclass
class CardKind:
    name: str
    count: int
    svg: SafeString | None


@dataclass(frozen=True)
class SetupRow:
    """The base game's deal for one number of players."""

    players: int
    saboteurs: int
    diggers: int
    hand: int


def deck(ruleset: str) -> tuple[list[CardKind], list[CardKind]]:
    """(path cards, action cards) of the ruleset, each kind once with its count."""
    paths: dict[str, CardKind] = {}
    actions: dict[str, CardKind] = {}
    for spec in engine.rules_for(ruleset).cards.values():
        card = engine.card_json(spec)
        if card.get("kind") not in ("path", "action"):
            continue
        name = describe.card_name(card)
        group = paths if card["kind"] == "path" else actions
        if name in group:
            group[name].count += 1
        else:
            svg = drawing.card_svg(card, width=56) if card.get("segments") else None
            group[name] = CardKind(name=name, count=1, svg=svg)
    return list(paths.values()), sorted(actions.values(), key=lambda k: k.name)


def table_cards() -> list[CardKind]:
    """The start card and the goal cards as the maze draws them: face down, then the
    gold and the two stones face up."""
    start = engine.card_json(START)
    cards = [CardKind(_("Start"), 1, drawing.card_svg(start, width=56)),
             CardKind(_("face-down goal"), 3, drawing.card_svg(
                 {"kind": "goal", "goal": "hidden"}, width=56, label=_("face-down goal")))]
    for content, spec in GOAL_CONTENTS.items():
        result = "gold" if content == "gold" else "stone"
        face = {**engine.card_json(spec), "kind": "goal", "goal": result, "revealed": True}
        label = _("goal: %(result)s") % {"result": describe.goal_result(result)}
        cards.append(CardKind(label, 1, drawing.card_svg(face, width=56, label=label)))
    return cards


def base_setup() -> list[SetupRow]:
    """Saboteur and gold-digger cards shuffled, and cards dealt, by number of players."""
    return [SetupRow(players, saboteurs, diggers, hand)
            for players, (saboteurs, diggers, hand) in sorted(BASE_TABLE.items())]


def saboteur_shares() -> list[tuple[int, int]]:
    """(saboteurs in the round, nuggets each) when the saboteurs win (base game)."""
    return sorted(SABOTEUR_SHARE.items())


def winner_shares() -> list[tuple[str, int]]:
    """(winners, nuggets each) in Saboteur 2: "1" ... "4", then "5+" get one each."""
    most = max(SHARE)
    return [*((str(n), SHARE[n]) for n in sorted(SHARE)), (f"{most + 1}+", 1)]


def s2_dwarves() -> list[tuple[str, int]]:
    """Saboteur 2's dwarf cards, named, with their counts."""
    return [(describe.role_name(role), count) for role, count in S2_DWARVES]


def s2_numbers() -> dict[str, int]:
    """The expansion's numbers the page names in its sentences."""
    return {"hand": HAND, "aside": SET_ASIDE, "dwarves": sum(n for _, n in S2_DWARVES),
            "boss": DEDUCTION["boss"], "profiteer": DEDUCTION["profiteer"]}
