"""The maze in words, cell by cell (games.seatview.core.cell_words): what a screen reader
hears on each cell of the seat page's grid, the replay's and the turn email's, in every
language, built from the seat's view only."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import engine
from games.seatview.core import cell_words, drawing, maze_drawing
from tests.engine.helpers import position

# A tunnel E-W east of the start joins it; a dead end two cells further on stands alone.
BOARD = {(1, 0): ("p05", False), (3, 0): ("p33", False)}

SAID = {
    "en": ("(1, 0): Tunnel E-W; exits east, west; joins the start",
           "(3, 0): Dead end E; exits east", "(2, 0): empty, a tunnel from the start leads here",
           "(5, 5): empty"),
    "it": ("(1, 0): Galleria E-O; uscite est, ovest; collegata alla carta iniziale",
           "(3, 0): Vicolo cieco E; uscite est",
           "(2, 0): vuota, qui arriva una galleria dalla carta iniziale", "(5, 5): vuota"),
    "nl": ("(1, 0): Gang O-W; uitgangen oost, west; verbonden met de startkaart",
           "(3, 0): Doodlopende gang O; uitgangen oost",
           "(2, 0): leeg, een gang vanaf de startkaart komt hier uit", "(5, 5): leeg"),
    "es": ("(1, 0): Túnel E-O; salidas este, oeste; conectada con la carta de inicio",
           "(3, 0): Callejón sin salida E; salidas este",
           "(2, 0): vacía, aquí llega un túnel desde la carta de inicio", "(5, 5): vacía"),
    "de": ("(1, 0): Gerader Weg O-W; Ausgänge Ost, West; mit der Startkarte verbunden",
           "(3, 0): Sackgasse O; Ausgänge Ost",
           "(2, 0): leer, ein Gang von der Startkarte führt hierher", "(5, 5): leer"),
}


@pytest.mark.parametrize("language", sorted(SAID))
def test_each_cell_says_its_card_its_exits_and_whether_it_joins_the_start(language: str
                                                                         ) -> None:
    view = engine.view(position(seats=3, board=BOARD), 0)
    tunnel, dead_end, frontier, far = SAID[language]
    with translation.override(language):
        said = cell_words.maze_words(view)
        assert said[(1, 0)] == tunnel
        assert said[(3, 0)] == dead_end
        assert said[(2, 0)] == frontier  # where a card could join the maze
        assert cell_words.cell_words(5, 5, None) == far
        # The page's grid and the email's say the very same words.
        svg = str(drawing.board_svg(view))
        email = str(maze_drawing.maze_html(view))
    for words in (tunnel, dead_end, frontier):
        quoted = words.replace("'", "&#x27;")
        assert f'aria-label="{quoted}"' in svg
        assert f'aria-label="{quoted}"' in email


def test_the_frontier_is_where_a_tunnel_from_the_start_runs_into_an_empty_cell() -> None:
    view = engine.view(position(seats=3, board=BOARD), 0)
    # Around the start (a crossroads), and east of the tunnel; not around the lone dead end.
    assert cell_words.frontier(view) == [(-1, 0), (0, -1), (0, 1), (2, 0)]
    assert cell_words.joined_cells(view) == {(0, 0), (1, 0)}


def test_a_goal_says_only_what_this_seat_knows() -> None:
    state = position(seats=3)
    state.known_goals[0] = [0]
    mine, theirs = engine.view(state, 0), engine.view(state, 1)
    top = next((g["x"], g["y"]) for g in mine["goals"] if g["goal"] == 0)
    assert cell_words.maze_words(mine)[top].startswith(
        f"({top[0]}, {top[1]}): face-down goal (your map showed: ")
    assert cell_words.maze_words(theirs)[top] == f"({top[0]}, {top[1]}): face-down goal"


def test_the_maze_is_a_grid_of_rows_and_cells_with_one_tab_stop() -> None:
    view = engine.view(position(seats=3, board=BOARD), 0)
    svg = str(drawing.board_svg(view, [(2, 0)]))
    assert 'role="grid" aria-label="The maze"' in svg
    rows = svg.split('<g role="row">')[1:]
    widths = {len(re.findall(r'role="gridcell"', row)) for row in rows}
    assert len(rows) == 5 and widths == {9}  # y -2..2, x 0..8: every cell, empty ones too
    assert svg.count('tabindex="0"') == 1
    assert re.search(r'data-cell="0,0" role="gridcell" tabindex="0"', svg)
    email = str(maze_drawing.maze_html(view))
    assert 'role="grid" aria-readonly="true" aria-label="The maze"' in email
    assert email.count('role="gridcell"') == 45 and email.count('role="columnheader"') == 9
