"""Words remembered per process (games.kit.language_memo): a card's name and each cell of
the maze in words say exactly what they say worked out afresh, for every seat, language
and ruleset; another language or a changed card is never answered from memory. And a
turn email's story from the seat's last turn (`timeline(..., since=)`) is the same lines
as the whole story's from there."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine.types import CardView, SeatView
from games.seatview.core import cell_words, words
from games.seatview.services.timeline import TableNotice, timeline
from tests.present.test_remembered_sentences import LANGUAGES, views_of_a_game


def cards_of(view: SeatView) -> list[CardView]:
    """Every card a view shows: the hand, the maze, what lies in front of each player."""
    placed = [cell["card"] for cell in view["board"]]
    in_front = [card for player in view["players"] for card in player["in_front"]]
    return [*view["hand"], *placed, *in_front]


@pytest.mark.parametrize(("ruleset", "seats", "seed"), [("base", 4, 3), ("saboteur2", 5, 7)])
def test_every_name_and_cell_is_the_plain_one_in_every_language(ruleset: str, seats: int,
                                                                seed: int) -> None:
    plain_name = words.card_name.__wrapped__  # type: ignore[attr-defined]
    plain_cell = cell_words._said.__wrapped__  # type: ignore[attr-defined]
    for language in LANGUAGES:
        with translation.override(language):
            for view in views_of_a_game(ruleset, seats, seed):
                for card in cards_of(view):
                    for _twice in range(2):  # worked out, then remembered
                        assert words.card_name(card) == plain_name(card)
                joined = cell_words.joined_cells(view)
                for cell in view["board"]:
                    x, y, card = cell["x"], cell["y"], cell["card"]
                    place = (x, y, card, (x, y) in joined, False)
                    for _twice in range(2):
                        assert cell_words.cell_words(x, y, card, joined=(x, y) in joined) == \
                            plain_cell(place)
                maze = cell_words.maze_words(view)
                assert maze == cell_words.maze_words(view)
                assert set(maze) == ({(c["x"], c["y"]) for c in view["board"]}
                                     | set(cell_words.frontier(view)))


def test_another_language_or_a_changed_card_is_worked_out_again() -> None:
    view = views_of_a_game("base", 3, 5)[0]
    tunnel = next(cell["card"] for cell in view["board"] if cell["card"].get("kind") == "path")
    english = words.card_name(tunnel)
    with translation.override("de"):
        german = words.card_name(tunnel)
    assert german != english and english == words.card_name(tunnel)
    turned = {**tunnel, "segments": [["N", "S"]], "exits": ["N", "S"]}
    assert words.card_name(turned) == words.card_name.__wrapped__(turned)  # type: ignore[attr-defined]


def test_the_maze_in_words_is_the_callers_to_change() -> None:
    view = views_of_a_game("base", 3, 5)[0]
    said = cell_words.maze_words(view)
    said.clear()
    assert cell_words.maze_words(view)


def test_the_story_since_a_line_is_the_whole_story_from_there() -> None:
    view = views_of_a_game("base", 3, 5)[0]
    names = {0: "Ann", 1: "Bert", 2: "Cleo"}
    notices = [TableNotice("timeout", {"seat": 1, "log_at": 5}, 1),
               TableNotice("moderator", {"action": "undo", "first": 4, "last": 5,
                                         "log_at": 9}, 2)]
    whole = timeline(view, names, notices)
    for since in range(len(view["log"] or []) + 2):
        assert timeline(view, names, notices, since=since) == [
            line for line in whole if line.log_index >= since]
