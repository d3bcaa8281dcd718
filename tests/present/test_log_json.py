"""The JSON API's log text (games.seatview.core.log_json): each seat's log exactly as its view
shows it, whether the process encodes only the new events, or a log read afresh, undone
or finished makes it start again."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.kit.lru import BoundedLRU
from games.seatview.core import log_json
from tests.support import choose


def as_list(fragment: orjson.Fragment) -> list[Any]:
    return list(orjson.loads(orjson.dumps(fragment)))


def view_log(state: engine.State, seat: int | None) -> list[Any]:
    return list(json.loads(json.dumps(engine.view(state, seat)["log"])))


def played(seats: int, seed: int, ruleset: str, rereads: frozenset[int],
           undo_at: int | None) -> Iterator[tuple[int, engine.State]]:
    """A game as the server holds its log: one list grown by appending the events each
    move adds (games.moves.core.log_cache), read afresh (new objects) after the moves in
    `rereads`, and at move `undo_at` taken back three moves and played on otherwise
    (a moderator's undo: the log read afresh, shorter)."""
    rng = random.Random(seed)
    history = [engine.new_game(seats, seed, ruleset)]
    log = list(history[0].log)
    number = 0
    while not history[-1].finished and number < 400:
        number += 1
        if number == undo_at and len(history) > 3:
            del history[-3:]
            log = copy.deepcopy(history[-1].log)
            rng = random.Random(seed + 1)
        before = history[-1]
        after = engine.apply(before, choose(engine.legal_moves(before), rng, special=0.2))
        history.append(after)
        log = [*log, *after.log[len(log):]]
        if number in rereads:
            log = copy.deepcopy(log)
        shown = copy.copy(after)
        shown.log = log
        yield number, shown


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(3, 5),
       ruleset=st.sampled_from(["base", "saboteur2"]),
       rereads=st.frozensets(st.integers(1, 200), max_size=6),
       undo_at=st.none() | st.integers(5, 150), quiet=st.integers(0, 6))
def test_every_seat_gets_its_views_log_after_every_move(
        seed: int, seats: int, ruleset: str, rereads: frozenset[int],
        undo_at: int | None, quiet: int) -> None:
    """`quiet`: for that many moves after the undo nobody asks, so the log taken back
    and played on otherwise can be as long as, or longer than, the text kept."""
    log_json.clear()
    game_id = seed
    for number, state in played(seats, seed, ruleset, rereads, undo_at):
        if undo_at is not None and undo_at <= number < undo_at + quiet:
            continue
        for seat in [*range(seats), None]:
            assert as_list(log_json.seat_log_json(game_id, state, seat)) \
                == view_log(state, seat)
    assert state.finished  # the game's end shows every `_at_end` secret: checked above


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many events log_json redacts (and so encodes) per call."""
    calls = [0]
    real = engine.seat_event

    def counting(event: Any, seat: int | None, finished: bool) -> Any:
        calls[0] += 1
        return real(event, seat, finished)

    monkeypatch.setattr(log_json, "seat_event", counting)
    return calls


def grown(states: list[engine.State]) -> list[engine.State]:
    """The states with one log list grown by appending, as the server keeps it."""
    log: list[Any] = []
    shown = []
    for state in states:
        log = [*log, *state.log[len(log):]]
        view = copy.copy(state)
        view.log = log
        shown.append(view)
    return shown


def some_moves(count: int, seed: int = 3) -> list[engine.State]:
    rng = random.Random(seed)
    states = [engine.new_game(4, seed)]
    for _ in range(count):
        states.append(engine.apply(states[-1], choose(engine.legal_moves(states[-1]), rng)))
    return grown(states)


def test_a_seat_shown_its_log_again_gets_only_the_new_events_encoded(
        counted: list[int]) -> None:
    states = some_moves(30)
    early, late = states[10], states[30]
    log_json.seat_log_json(1, early, 2)
    assert counted[0] == len(early.log)
    counted[0] = 0
    assert as_list(log_json.seat_log_json(1, late, 2)) == view_log(late, 2)
    assert counted[0] == len(late.log) - len(early.log)
    counted[0] = 0
    log_json.seat_log_json(1, late, 3)  # another seat: its own text
    assert counted[0] == len(late.log)


def test_a_log_read_afresh_is_encoded_afresh(counted: list[int]) -> None:
    states = some_moves(20)
    log_json.seat_log_json(1, states[20], 0)
    again = copy.copy(states[20])
    again.log = copy.deepcopy(states[20].log)
    counted[0] = 0
    assert as_list(log_json.seat_log_json(1, again, 0)) == view_log(again, 0)
    assert counted[0] == len(again.log)


def test_the_oldest_text_goes_past_the_bound(counted: list[int],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(log_json, "_texts", BoundedLRU(2))
    state = some_moves(5)[5]
    for game_id in (1, 2, 3):
        log_json.seat_log_json(game_id, state, 0)
    counted[0] = 0
    log_json.seat_log_json(3, state, 0)
    log_json.seat_log_json(2, state, 0)
    assert counted[0] == 0
    log_json.seat_log_json(1, state, 0)
    assert counted[0] == len(state.log)


def test_an_empty_log_is_an_empty_list() -> None:
    state = copy.copy(engine.new_game(3, 1))
    state.log = []
    assert as_list(log_json.seat_log_json(1, state, 0)) == []
