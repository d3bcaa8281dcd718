"""The turn email as a player reads it: examples that are moves a player would make, a maze
wide enough for every cell they name, a legend for the text maze, hand pictures big enough
to see (action cards too), and the end of the game linking the replay and the record."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.utils import translation

from games import engine
from games.engine.types import LogEvent
from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.mail.doors import letters
from games.seatview.core import describe, maze_drawing, reply_help
from tests.engine.helpers import position
from tests.support import make_game, put_opening_state

pytestmark = pytest.mark.django_db
NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}


def _examples(state: engine.State) -> list[str]:
    view = engine.view(state, state.actor)
    return reply_help.examples(view, engine.legal_moves(state), NAMES, "en")


def test_a_broken_tool_is_shown_played_on_someone_else_and_a_repair_on_yourself() -> None:
    # Seat 0 holds a broken pickaxe (a01) first and a repair (a10) for its own pickaxe.
    state = position(seats=3, turn=0, hands={0: ["a01", "a10", "p05"]},
                     in_front={0: ["a02"]})
    lines = _examples(state)
    assert "play 1 on Bob pickaxe" in lines or "play 1 on Cy pickaxe" in lines
    assert not any(line.startswith("play 1 on me") for line in lines)
    fresh = position(seats=3, turn=0, hands={0: ["a10", "a01"]}, in_front={0: ["a02"]})
    assert "play 1 on me pickaxe" in _examples(fresh)


def test_the_placement_example_digs_towards_the_goals() -> None:
    state = position(seats=3, turn=0, hands={0: ["p05", "p01"]})
    first = next(line for line in _examples(state) if line.startswith("play"))
    assert first == "play 1 at 1,0"  # east of the start, not west or above it


def test_the_turn_emails_maze_shows_every_cell_its_moves_name(commit: Any) -> None:
    with commit():
        make_game(players=3, seed=9, start=True)
    [turn] = [m for m in mail.outbox if m.to == ["p0@example.com"] and "your turn" in m.subject]
    html = turn.alternatives[0][0]  # type: ignore[attr-defined]
    text = str(turn.body)
    named = {(int(x), int(y)) for x, y in re.findall(r"(-?\d+),(-?\d+)", text.split(
        "Reply by email", 1)[-1])}
    columns = [int(c) for c in re.findall(
        r'<td role="columnheader" bgcolor="#fffdf8"[^>]*>(-?\d+)</td>',
        html.split('<tr role="row">', 2)[1])]
    assert named and all(x in columns for x, _ in named), (named, columns)
    assert -1 in columns  # the start's west neighbour is a free cell a card may take
    assert "o: a stone goal" in text and "x: a dead end on several sides" in text


def test_hand_pictures_are_48_pixels_and_action_cards_have_one() -> None:
    path = engine.card_json(engine.rules_for("base").cards["p05"])
    broken = engine.card_json(engine.rules_for("base").cards["a07"])
    assert maze_drawing.hand_picture(path).count('width="16"') == 9
    square = maze_drawing.hand_picture(broken)
    assert 'width="48" height="48"' in square and "🛒" in square and "#c62828" in square


def test_your_own_tool_is_yours_in_the_log() -> None:
    event: LogEvent = {"type": "break", "seat": 1, "card": "a07", "tool": "cart", "target": 0}
    names = {0: "Ann", 1: "Bert (bot)"}
    assert describe.event_sentence(event, names, "base", 0) == "Bert (bot) broke your cart."
    assert describe.event_sentence(event, names, "base", 2) == (
        "Bert (bot) broke the cart of Ann.")


@pytest.mark.parametrize(("language", "hint"), [("en", False), ("it", True), ("de", True)])
def test_english_words_work_too_is_said_only_in_other_languages(language: str,
                                                                *, hint: bool) -> None:
    state = position(seats=3, turn=0, hands={0: ["p05"]})
    view = engine.view(state, 0)
    with translation.override(language):
        intro = reply_help.how_to_reply(view, engine.legal_moves(state), NAMES, language)[0]
        assert (translation.gettext("English words work too.") in intro) is hint
    assert "(English words work too)" not in intro


def test_the_game_end_email_links_the_replay_and_the_record(commit: Any) -> None:
    g = make_game(players=3, seed=4)
    state = g.refresh().state()
    state.phase = "finished"
    Game.objects.filter(pk=g.game.pk).update(status=Game.Status.FINISHED)
    g.game.refresh_from_db()
    put_opening_state(g.game, state)
    g.game.save()
    note = Notification(kind=Notification.Kind.GAME_END, game=g.game, seat=g.seats[0],
                        to_email="p0@example.com", key="t", params={})
    letter = letters.game_end(note)
    token = g.tokens[0]
    for part in (letter.text, letter.html):
        assert f"/play/{token}/replay/" in part
        assert f"/api/play/{token}/record" in part


def test_a_symmetric_card_is_never_offered_turned_round() -> None:
    """A straight tunnel turned round is the same card in the same cell: one command."""
    state = position(seats=3, turn=0, hands={0: ["p05"]})
    view = engine.view(state, 0)
    legal = engine.legal_moves(state)
    assert any(m.get("rotated") for m in legal)  # the engine lists both turns
    lines = reply_help.options(view, legal, NAMES, "en") + _examples(state)
    assert not any("turned" in line for line in lines), lines
