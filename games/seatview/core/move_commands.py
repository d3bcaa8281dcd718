"""A legal move written as an email command in a language's words (the turn emails'
examples, the options after a refusal); `games.inbound.core.commands` reads them back.

Hand numbers count from 1 in the order of `hand` in the seat's view; gold numbers in the
order the turn email lists the offer (biggest first, `gold_order`).
"""

from __future__ import annotations

from games.engine.types import CardView, GoldCardView, Move, SeatView
from games.seatview.core import command_words as kw


def gold_order(view: SeatView) -> list[GoldCardView]:
    """The offered gold cards, biggest first (as the turn email lists them)."""
    offer = list(view.get("gold_offer") or [])
    return sorted(offer, key=lambda card: -int(card["value"]))



def command_for(move: Move, view: SeatView, names: dict[int, str], language: str) -> str:
    """The command that makes `move`, in the words of `language`."""
    hand = [card["id"] for card in view.get("hand") or []]

    def number(card_id: str | None) -> str:
        if card_id is None:
            raise ValueError("no card to name")
        return str(hand.index(card_id) + 1)

    def verb(name: str) -> str:
        return kw.first(kw.VERBS[name], language)

    def who(seat: int) -> str:
        return kw.first(kw.ME, language) if seat == view.get("seat") else names[seat]

    kind = move["type"]
    if kind == "place":
        text = f"{verb('play')} {number(move['card'])} {kw.first(kw.AT, language)} " \
               f"{move['x']},{move['y']}"
        return text + (f" {kw.first(kw.TURNED, language)}" if move.get("rotated") else "")
    if kind == "action":
        text = f"{verb('play')} {number(move['card'])} {kw.first(kw.ON, language)} " \
               f"{who(move['target'])}"
        return text + (f" {kw.first(kw.TOOLS[move['tool']], language)}"
                       if move.get("tool") else "")
    if kind == "rockfall":
        return f"{verb('rockfall')} {number(move['card'])} {kw.first(kw.AT, language)} " \
               f"{move['x']},{move['y']}"
    if kind == "map":
        return f"{verb('map')} {number(move['card'])} " \
               f"{kw.first(kw.GOALS[int(move['goal'])], language)}"
    if kind == "pass":
        cards = move.get("cards", [move["card"]] if move.get("card") else [])
        return " ".join([verb("pass"), *(number(c) for c in cards)])
    if kind == "pick_gold":
        ids = [card["id"] for card in gold_order(view)]
        return f"{verb('gold')} {ids.index(move.get('card') or '') + 1}"
    if kind == "steal":
        return f"{verb('steal')} {who(move['target'])}"
    if kind == "free":
        return " ".join([verb("free"), *(number(c) for c in move["cards"]),
                         kw.first(kw.REMOVE, language), _removed_word(move, view, language)])
    raise ValueError(f"no command for a {kind!r} move")


def _removed_word(move: Move, view: SeatView, language: str) -> str:
    mine: list[CardView] = next((p["in_front"] for p in view["players"]
                             if p["seat"] == view["seat"]), [])
    card = next(c for c in mine if c["id"] == move["remove"])
    if card.get("action") == "trapped":
        return kw.first(kw.TRAPPED, language)
    tools = card.get("tools") or []
    if len(tools) == 1:
        return kw.first(kw.TOOLS[tools[0]], language)
    return kw.fold(str(card["name"]))
