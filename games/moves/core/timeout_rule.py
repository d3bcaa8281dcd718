"""The timeout rule (docs/playing.md "Emails, reminders and deadlines"): when the server
plays for a seat whose deadline passed, it
- passes, discarding the LAST card of the seat's hand as its view lists it. The engine
  appends each drawn card to the end of the hand, so this is the card drawn most
  recently (at the start of a round: the last card dealt). It keeps the cards the
  player has held longest, which are the ones they have had time to plan with.
  With an empty hand it passes without a card. (Saboteur 2 passes name a list of
  cards: the pass is then of that one last card.)
- during the gold hand-out, takes the most valuable gold card offered (the first of
  them in the offered order on a tie): what any player would pick.
- at the end of a Saboteur 2 round, a thief steals from the first player offered
  (the engine lists them in seat order): the thief knows no more than who has a nugget.
"""

from __future__ import annotations

from games.engine.types import Move, SeatView


def timeout_move(view: SeatView, legal: list[Move]) -> Move:
    """The move the server makes for a seat that missed its deadline (the module's rule)."""
    if not legal:
        raise ValueError("no legal move to make for the seat")
    wanted: Move
    if view.get("phase") == "gold" and view.get("gold_offer"):
        best = max(view["gold_offer"], key=lambda g: int(g["value"]))
        wanted = {"type": "pick_gold", "card": best["id"]}
    elif view.get("hand"):
        last = view["hand"][-1]["id"]
        wanted = {"type": "pass", "card": last}
        if any("cards" in m for m in legal if m.get("type") == "pass"):
            wanted = {"type": "pass", "cards": [last]}
    else:
        wanted = {"type": "pass", "card": None}
    for move in legal:
        if all(move.get(k) == v for k, v in wanted.items()):
            return move
    # A ruleset whose moves look different: still a fixed rule, the first pass (or pick)
    # offered, else the first legal move.
    for move in legal:
        if move.get("type") == wanted["type"]:
            return move
    return legal[0]
