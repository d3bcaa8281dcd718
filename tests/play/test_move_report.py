"""A move's report (games.moves.services.moves.Moved): what the move added to the log, as
each seat may see it, is what that seat's view of the game shows after the move, so the
page and an email reply say what happened without reading the game again; a seat's move
read by a MoveReader is read at the mover's version or not at all."""

from __future__ import annotations

import pytest

from games import engine
from games.engine.types import JSON, Move, SeatView
from games.game.core.game import Game
from games.kit.service_errors import StaleVersion
from games.moves.services import moves
from games.seats.core.seat import Seat
from tests.support import make_game, seat_move

pytestmark = pytest.mark.django_db


def secret_move(seeds: range) -> tuple[Game, Seat, Move]:
    """A started game whose seat to act has a legal move with a secret (a map card's
    look at a goal, or a card drawn: only the mover learns it)."""
    for seed in seeds:
        made = make_game(players=3, seed=seed)
        state = made.game.state()
        for move in engine.legal_moves(state):
            after = engine.apply(made.game.state_without_log(), move)
            if any("_secret" in event for event in after.log):
                assert state.actor is not None
                return made.game, made.seats[state.actor], move
    raise AssertionError("no move with a secret in these deals")


def test_each_seat_is_told_what_its_own_view_shows_after_the_move() -> None:
    game, seat, move = secret_move(range(1, 40))
    moved = moves.game_move_submit(actor=moves.BySeat(seat), version=game.version, move=move)
    after = Game.objects.get(pk=game.pk).state()
    for number in range(after.seats):
        log = engine.view(after, number)["log"]
        assert log is not None
        assert moved.told(number) == log[len(log) - len(moved.added):]
    mover, other = moved.told(seat.number), moved.told((seat.number + 1) % after.seats)
    assert mover != other  # the secret is the mover's alone
    assert not any(key.startswith("_") for event in other for key in event)


def test_a_move_reader_reads_the_view_at_the_movers_version() -> None:
    made = make_game(players=3, seed=2)
    seat = made.seats[made.actor_seat()]
    seen: list[SeatView] = []

    def first_legal(view: SeatView, players: list[moves.Player]) -> JSON:
        seen.append(view)
        assert [p.number for p in players] == [0, 1, 2]
        return dict(engine.legal_moves(made.game.state())[0])

    moved = moves.game_move_submit(actor=moves.BySeat(seat), version=0, move=first_legal)
    assert moved.game.version == 1 and seen[0]["seat"] == seat.number
    assert seen[0]["hand"] == engine.view(made.game.state(), seat.number)["hand"]


def test_a_move_reader_is_not_asked_once_the_game_moved_on() -> None:
    made = make_game(players=3, seed=2)
    actor = made.actor_seat()
    game = made.refresh()
    seat_move(made.seats[actor], game.version, engine.legal_moves(game.state())[0])
    asked: list[SeatView] = []

    def reader(view: SeatView, players: list[moves.Player]) -> JSON:
        asked.append(view)
        return {}

    nxt = made.seats[made.refresh().actor or 0]
    with pytest.raises(StaleVersion) as stale:
        moves.game_move_submit(actor=moves.BySeat(nxt), version=0, move=reader)
    assert (stale.value.expected, stale.value.current) == (0, 1) and asked == []
    assert made.refresh().version == 1
