"""The turn email's hand: pictures in one row, names in the row under them, one column
per card, so a name always sits under its own card (action cards have no picture)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail

from tests.support import make_game

pytestmark = pytest.mark.django_db


def test_names_sit_under_their_cards(commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=9, start=True)
    [turn] = [m for m in mail.outbox if m.to == ["p0@example.com"] and "your turn" in m.subject]
    html = turn.alternatives[0][0]  # type: ignore[attr-defined]
    start = html.index('<table class="hand"')
    hand = g.refresh().state().hands[0]
    cells = re.findall(r'<td class="hand-card"[^>]*valign="(bottom|top)"[^>]*>(\s*\d+\.)?',
                       html[start:])
    # A row of pictures (one cell per card, empty for an action card), then a row of names.
    assert [kind for kind, _ in cells] == ["bottom"] * len(hand) + ["top"] * len(hand)
    assert [name.strip() for _, name in cells[len(hand):]] == [
        f"{n}." for n in range(1, len(hand) + 1)]
