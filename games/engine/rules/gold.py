"""Paying an exact number of nuggets from the gold pile."""

from __future__ import annotations

from itertools import product

from ..cards import GOLD_VALUES


def exact_payment(pile: list[str], amount: int) -> list[str]:
    """Gold cards from `pile` summing exactly to `amount`, fewest cards first.

    RULES.md ruling: if the pile cannot make the amount exactly, pay the largest amount
    below it that it can. Our tie-break (not in RULES.md): among equally few cards,
    prefer bigger cards (4 = 3 + 1 rather than 2 + 2). Cards of one value are taken from
    the top of the pile (the end of the list).
    """
    by_value: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for card_id in reversed(pile):
        by_value[GOLD_VALUES[card_id]].append(card_id)
    for target in range(amount, 0, -1):
        best: tuple[int, int, int] | None = None
        for threes, twos, ones in product(range(min(len(by_value[3]), target // 3) + 1),
                                          range(min(len(by_value[2]), target // 2) + 1),
                                          range(min(len(by_value[1]), target) + 1)):
            if 3 * threes + 2 * twos + ones != target:
                continue
            key = (threes, twos, ones)
            if best is None or (sum(key), (-threes, -twos)) < (sum(best), (-best[0], -best[1])):
                best = key
        if best is not None:
            return by_value[3][:best[0]] + by_value[2][:best[1]] + by_value[1][:best[2]]
    return []
