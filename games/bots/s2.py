"""Saboteur 2's own moves: theft and hands off, trapped and free at last, inspection,
swapping hats or hands, discarding two cards to free yourself, and the end-of-round
steal."""

from __future__ import annotations

from games.engine.types import CardView, Move

from .context import Context
from .scoring import usefulness


def score_s2_action(ctx: Context, move: Move, card: CardView) -> float:
    action = card.get("action")
    target = int(move["target"])
    me = ctx.me
    hostility = ctx.hostility(target)
    if action == "theft":
        return 6.0  # a nugget from someone at the end of the round, whoever wins
    if action == "hands_off":
        return -20.0 if target == me else 2.0 + 3.0 * hostility
    if action == "trapped":
        if target == me:
            return -30.0
        # Trapped players win nothing and dig nothing: for foes only.
        return -4.0 + 4.0 * hostility if hostility <= 0 else 3.0 + 8.0 * hostility
    if action == "free_at_last":
        return 14.0 if target == me else -7.0 * hostility
    if action == "inspection":
        known = target in ctx.know.known
        return -1.0 if known else 1.5 + abs(ctx.know.suspicion[target]) * 0.5
    if action == "swap_hats":
        if target == me:
            # A role that cannot win much is worth gambling away.
            return 2.0 if ctx.know.role in ("geologist", "saboteur") and ctx.maze.distance <= 3 \
                else -5.0
        return -1.0 + 4.0 * hostility if hostility > 0.5 else -3.0
    if action == "swap_hand":
        return -1.0
    return -1.0


def score_free(ctx: Context, move: Move, hand: dict[str, CardView]) -> float:
    """Discard two cards to remove a card in front of yourself (draw only one)."""
    removed = next((c for c in _in_front(ctx) if c["id"] == move["remove"]), None)
    if removed is None or removed.get("action") == "theft":
        return -20.0
    cost = sum(max(0.0, usefulness(ctx, hand[c])) for c in move["cards"])
    if removed.get("action") == "trapped":
        worth = 10.0
    elif len(ctx.know.broken[ctx.me]) == 1:
        worth = 8.0 if ctx.aim != "crystal" else 2.0
    else:
        worth = 3.0
    if any(c.get("action") in ("repair", "free_at_last") and _fixes(c, removed)
           for c in hand.values()):
        worth -= 6.0  # a card in hand does it for one card
    return worth - 2.0 * cost - 1.0


def _fixes(card: CardView, removed: CardView) -> bool:
    if card.get("action") == "free_at_last":
        return removed.get("action") == "trapped"
    return bool(set(card.get("tools", ())) & set(removed.get("tools", ())))


def _in_front(ctx: Context) -> list[CardView]:
    cards: list[CardView] = ctx.view["players"][ctx.me]["in_front"]
    return cards


def score_steal(ctx: Context, move: Move) -> float:
    return ctx.hostility(int(move["target"]))
