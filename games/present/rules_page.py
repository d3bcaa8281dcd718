"""The "How to play" pages (one per ruleset): every card of the deck drawn as the maze
draws it and named as the game names it, counted."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString

from games import engine
from games.present import describe, drawing


@dataclass
class CardKind:
    name: str
    count: int
    svg: SafeString | None


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
