"""The neutral lines (GameNotice) in every seat's log: where they go, what they say, and
that a seat page with them still depends on nothing the seat may not know."""

from __future__ import annotations

import random
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games import engine
from games.engine.types import SeatView
from games.game.core.game import Game
from games.moderation import services as moderation
from games.seatview.core import describe
from games.seatview.core.recent import view_log
from games.seatview.services.timeline import TableNotice, timeline
from tests.moderation_support import make_moderator, play
from tests.support import GameWithLinks, perturbed, without_csrf

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}


@pytest.mark.parametrize(("kind", "params", "sentence"), [
    ("moderator", {"action": "undo", "first": 41, "last": 42, "note": "card played by mistake"},
     "A moderator undid moves 41–42: card played by mistake."),
    ("moderator", {"action": "undo", "first": 7, "last": 7}, "A moderator undid move 7."),
    ("moderator", {"action": "extend", "seat": 1, "hours": 24},
     "A moderator gave Bob 24 more hours for this turn."),
    ("moderator", {"action": "extend", "seat": 1, "hours": 1},
     "A moderator gave Bob 1 more hour for this turn."),
    ("moderator", {"action": "pause", "note": "looking into it!"},
     "A moderator paused the game: looking into it!"),
    ("moderator", {"action": "resume"}, "A moderator resumed the game."),
    ("moderator", {"action": "cancel"}, "A moderator cancelled the game."),
    ("moderator", {"action": "move", "seat": 2, "number": 12},
     "A moderator made move 12 for Cy."),
    ("replaced", {"seat": 2, "old": "Cy", "new": "Dee"}, "Dee takes over seat 3 from Cy."),
    ("dispute", {"event": "filed", "seat": 0, "move": 3}, "Ann filed a dispute about move 3."),
    ("dispute", {"event": "filed", "seat": 0}, "Ann filed a dispute."),
    ("dispute", {"event": "resolved", "seat": 0, "outcome": "upheld", "note": "all agreed"},
     "A moderator resolved the dispute of Ann (upheld: the game was put right): all agreed."),
    ("timeout", {"seat": 1}, "Bob missed the deadline."),
    ("something_new", {}, "A note from the moderators."),
])
def test_notice_sentences(kind: str, params: dict[str, Any], sentence: str) -> None:
    assert describe.notice_sentence(kind, params, NAMES) == sentence


LINES = st.lists(st.sampled_from(["place", "pass", "reveal"]), max_size=8)
NOTICES = st.lists(st.integers(min_value=0, max_value=12), max_size=6)


@given(events=LINES, positions=NOTICES)
def test_notices_keep_their_order_and_place_in_the_log(events: list[str],
                                                       positions: list[int]) -> None:
    view: SeatView = {"ruleset": "base", "log": [
        {"type": "pass", "seat": i % 3, "count": 0} for i, _t in enumerate(events)]}
    notices = [TableNotice("moderator",
                           {"action": "undo", "first": n + 1, "last": n + 1, "log_at": p})
               for n, p in enumerate(positions)]
    merged = timeline(view, NAMES, notices)
    assert len(merged) == len(events) + len(positions)
    shown = [line.text for line in merged if line.notice]
    assert [f"undid move {n + 1}." in line for n, line in enumerate(shown)] == [True] * len(shown)
    plain = [line for line in merged if not line.notice]
    assert [line.text for line in plain] == [
        describe.event_sentence(e, NAMES, "base") for e in view_log(view)]
    # Every pass is a move: numbered 1, 2, 3... like the Move rows.
    assert [line.number for line in plain] == list(range(1, len(events) + 1))
    # Each notice sits after the events it saw, but never after a notice written later
    # (an undo shortens the log: what came before it stays before it).
    expected = [min(p, len(events)) for p in positions]
    for i in range(len(expected) - 2, -1, -1):
        expected[i] = min(expected[i], expected[i + 1])
    placed = [sum(1 for x in merged[:i] if not x.notice)
              for i, line in enumerate(merged) if line.notice]
    assert placed == expected


def test_an_undo_notice_comes_before_the_move_made_again() -> None:
    # A timeout at event 5, then an undo back to 3 events, then the move made again.
    view: SeatView = {"ruleset": "base", "log": [
        {"type": "pass", "seat": i % 3, "count": 0} for i in range(4)]}
    notices = [TableNotice("timeout", {"seat": 1, "log_at": 5}),
               TableNotice("moderator", {"action": "undo", "first": 4, "last": 5, "log_at": 3})]
    lines = timeline(view, NAMES, notices)
    kinds = ["notice" if line.notice else line.number for line in lines]
    assert kinds == [1, 2, 3, "notice", "notice", 4]
    assert "undid moves 4–5" in lines[4].text


@pytest.mark.django_db
def test_seat_pages_with_notices_depend_on_nothing_hidden(client: Client,
                                                          game: GameWithLinks) -> None:
    """Every kind of moderator line in the log, and the page of each seat is byte for byte
    the same when everything that seat may not know is changed."""
    mod: User = make_moderator()
    play(game, random.Random(5), moves=6)
    g = game.refresh()
    moderation.file_dispute(game.seats[0].pk, text="private words")
    moderation.file_dispute(game.seats[1].pk, text="shared words", share_with_table=True)
    moderation.undo_to(g.pk, 4, expected_version=6, moderator=mod, reason="secret reason",
                       public_note="undone")
    moderation.extend_deadline(g.pk, 12, moderator=mod, reason="secret reason")
    moderation.replace_player(game.seats[2].pk, name="Dee", email="dee@example.com",
                              moderator=mod, reason="secret reason")
    g = game.refresh()
    move = next(m for m in engine.legal_moves(g.state()) if m["type"] == "pass")
    moderation.moderator_move(g.pk, move, expected_version=4, moderator=mod,
                              reason="secret reason")
    moderation.pause_game(g.pk, moderator=mod, reason="secret reason")
    moderation.resume(g.pk, moderator=mod, reason="secret reason")
    tokens = game.tokens[:2]  # seat 2 has a new player (and link) now
    state = game.refresh().state()
    rng = random.Random(1)
    # Time stands still while each page is rendered twice (the clock on it is public).
    with time_machine.travel(timezone.now(), tick=False):
        for seat, token in enumerate(tokens):
            url = f"/play/{token}/"
            body = client.get(url).content.decode()
            assert "secret reason" not in body
            assert ("private words" in body) == (seat == 0)
            assert "shared words" in body and "A moderator made move 5" in body
            assert "A moderator undid moves 5–6: undone." in body
            original = Game.objects.get(pk=g.pk).snapshot
            changed = perturbed(state, seat, rng).to_json()
            Game.objects.filter(pk=g.pk).update(snapshot=changed)
            try:
                after = without_csrf(client.get(url).content.decode())
            finally:
                Game.objects.filter(pk=g.pk).update(snapshot=original)
            assert without_csrf(body) == after, f"seat {seat}'s page depends on hidden facts"
