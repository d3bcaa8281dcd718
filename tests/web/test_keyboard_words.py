"""The words a screen reader and a keyboard player get, in the reader's language: the
maze's cells, the lit cells' words, the one-key commands' sentences and list on the seat
page, the live region outside the parts the page swaps, and the turn email's maze in
words (the same words as the page)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.support import make_game

pytestmark = pytest.mark.django_db


def test_the_seat_page_speaks_italian_to_an_italian_reader(client: Client) -> None:
    game = make_game(players=3, seed=1, start=True)
    actor = game.refresh().state().actor
    assert actor is not None
    Seat.objects.filter(pk=game.seats[actor].pk).update(language="it")
    page = client.get(game.page(actor)).content.decode()
    live = client.get(game.page(actor) + "live").content.decode()
    # The maze: a grid whose cells say their words.
    assert 'role="grid" aria-label="Il labirinto"' in page
    assert 'aria-label="(0, 0): Partenza; uscite nord, est, sud, ovest"' in page
    assert 'aria-label="(1, 0): vuota, qui arriva una galleria dalla carta iniziale"' in page
    # What a chosen card's cells add, written per card by the server.
    assert 'data-lit="illuminata: qui va ' in page
    # The one-key commands: listed, and their sentences in the parts that stay current.
    assert "Giocare con la tastiera" in page and "Comandi a un tasto" in page
    for said in (page, live):
        assert ("Caselle dove una carta si può collegare: (-1, 0), (0, -1), (0, 1), (1, 0)."
                in said)
        assert 'data-key="h">La tua mano: 1. ' in said
    # One live region, on the page and never in the parts the script swaps.
    assert page.count('id="announce"') == 1 and 'id="announce"' not in live
    assert "Tab goes into it" not in page  # no English left on an Italian page


def test_the_turn_email_says_the_maze_in_the_pages_words(commit: Any) -> None:
    players = [game_setup.PlayerSpec(name=n, email=f"{n.lower()}@example.org", language="de")
               for n in ("Ann", "Bob", "Cy")]
    with commit():
        game_setup.create_game(name="Wörter", players=players, seed=9, start=True,
                               invite=False)
    [turn] = [m for m in mail.outbox if "(" in m.subject and getattr(m, "alternatives", None)]
    html = turn.alternatives[0][0]  # type: ignore[attr-defined]
    text = str(turn.body)
    start = "(0, 0): Start; Ausgänge Nord, Ost, Süd, West"
    assert "Das Wegelabyrinth in Worten:" in text and f"- {start}" in text
    maze = re.search(r'<table class="maze"[^>]*>', html)
    assert maze and 'role="grid"' in maze[0] and 'aria-label="Das Wegelabyrinth"' in maze[0]
    assert re.search(rf'<td role="gridcell" aria-label="{re.escape(start)}"', html)
