"""A tournament's table ends with its game (games.tournaments.services.table_ends, listening
to GameEnded): the last move, or a moderator's cancel, puts the table in the standings in
the same transaction, before any sweep runs; the sweep still pairs the next round, and
closes a table whose game ended without it; a failure closing the table never undoes the
game's end; a deadline missed by the move that ended the game is a no-show all the same; a
moderator's undo of the game's end opens the table again, unless the event has moved on."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.clock.services.misses import miss_deadline
from games.game.core.game import Game, Move
from games.moderation import services as moderation
from games.moderation.services.game_clock import cancel
from games.moves.core.timeout_rule import timeout_move
from games.seats.core.reliability import MissedDeadline
from games.tournaments.core.event_rows import Entry, EventTable, Tournament
from games.tournaments.services import entries, pairing_rounds, results, table_ends
from tests.moderation_support import make_moderator
from tests.support import choose, move_for, seat_move
from tests.tournaments.support import event, to_the_last_move

pytestmark = pytest.mark.django_db
PEOPLE = [f"p{n}@example.org" for n in range(3)]


def started(clock: Any, commit: Any, **chosen: Any) -> tuple[Tournament, EventTable]:
    """Three players, round 1 paired at one table: the event and its table."""
    cup = event(cap=3, **chosen)
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    return cup, EventTable.objects.get(event_round__tournament=cup)


def last_move(table: EventTable, seed: int = 0) -> Game:
    """The table's game ended by its last move, made through the move service."""
    assert table.game is not None
    game = table.game
    move = to_the_last_move(game, seed)
    assert game.actor is not None
    ended = seat_move(game.seats.get(number=game.actor), game.version, move)
    assert ended.status == Game.Status.FINISHED
    return ended


def played(cup: Tournament) -> list[int]:
    return [row.standing.played for row in results.standings(cup)]


def test_the_last_move_puts_the_table_in_the_standings_before_any_sweep(
        clock: Any, commit: Any, client: Client) -> None:
    cup, table = started(clock, commit)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Round 1: 0 of 1 tables ended" in page
    game = last_move(table)
    table.refresh_from_db()
    assert table.ended_at is not None
    assert table.nuggets == game.state_without_log().scores
    shown = client.get(f"/api/tournaments/{cup.pk}/").json()
    assert [row["played"] for row in shown["standings"]] == [1, 1, 1]
    assert shown["rounds_played"][0]["ended"] == 1
    assert sum(row["score"] for row in shown["standings"]) == pytest.approx(3 / 2)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Round 1: 1 of 1 tables ended" in page


def test_the_sweep_pairs_the_next_round_after_a_table_the_last_move_closed(
        clock: Any, commit: Any) -> None:
    cup, table = started(clock, commit, rounds=2)
    last_move(table)
    table.refresh_from_db()
    closed = (table.ended_at, table.nuggets)
    clock.shift(timedelta(minutes=1))
    with commit():
        assert pairing_rounds.sweep_tournaments()["seated"] == 3
    table.refresh_from_db()
    assert (table.ended_at, table.nuggets) == closed  # closed once, not again
    assert EventTable.objects.filter(event_round__tournament=cup,
                                     event_round__number=2).count() == 1
    assert played(cup) == [1, 1, 1]


def test_a_cancelled_games_table_closes_with_everyone_tied(clock: Any, commit: Any) -> None:
    cup, table = started(clock, commit)
    assert table.game is not None
    cancel(table.game.pk, moderator=make_moderator(), reason="a broken table")
    table.refresh_from_db()
    assert table.ended_at is not None and table.nuggets == [0, 0, 0]
    rows = results.standings(cup)
    assert [row.standing.played for row in rows] == [1, 1, 1]
    assert {row.standing.score for row in rows} == {0.5}
    assert {row.standing.rank for row in rows} == {1}


def test_a_failure_closing_the_table_does_not_undo_the_last_move_and_the_sweep_closes_it(
        clock: Any, commit: Any, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The table is bookkeeping the sweep catches up with; the last move is the players'."""
    cup, table = started(clock, commit)

    def broken(*_args: Any) -> None:
        raise RuntimeError("the table's bookkeeping broke")

    monkeypatch.setattr(table_ends, "close_table", broken)
    game = last_move(table)
    assert Move.objects.filter(game=game, number=game.version).exists()
    assert "left to the sweep" in caplog.text
    table.refresh_from_db()
    assert table.ended_at is None and played(cup) == [0, 0, 0]
    monkeypatch.undo()
    with commit():
        pairing_rounds.sweep_tournaments()
    table.refresh_from_db()
    assert table.nuggets == game.state_without_log().scores and played(cup) == [1, 1, 1]


@pytest.mark.parametrize("missed_before", [False, True])
def test_a_deadline_missed_by_the_move_that_ended_the_game_is_one_no_show(
        clock: Any, commit: Any, missed_before: bool) -> None:
    """The miss is recorded after the server's move that ended the game, so after the
    table closed: it counts all the same, and once per game however many there were."""
    cup, table = started(clock, commit)
    assert table.game is not None
    game = table.game
    to_the_last_move(game, 1)
    game.refresh_from_db()
    state = game.state_without_log()
    assert state.actor is not None and game.deadline_at is not None
    server_move = timeout_move(engine.view(state, state.actor), engine.legal_moves(state))
    assert engine.apply(state, server_move).finished  # the server's move ends the game
    absent = game.seats.get(number=state.actor)
    entry = Entry.objects.get(tournament=cup, address=absent.email)
    if missed_before:
        MissedDeadline.objects.create(game=game, seat=absent, version=1,
                                      mailbox=absent.mailbox_key)
    assert miss_deadline(game.pk, game.version, game.deadline_at) == "passed"
    table.refresh_from_db()
    entry.refresh_from_db()
    assert table.ended_at is not None and entry.no_shows == 1
    with commit():
        pairing_rounds.sweep_tournaments()
    assert [e.no_shows for e in Entry.objects.filter(tournament=cup).order_by("pk")] == [
        1 if e.pk == entry.pk else 0 for e in Entry.objects.filter(tournament=cup).order_by("pk")]


def played_out(table: EventTable, seed: int = 0) -> Game:
    """The table's game played to its end through the move service (every move a Move
    row, as a moderator's undo replays them)."""
    assert table.game is not None
    game, rng = table.game, random.Random(seed)
    while game.status != Game.Status.FINISHED:
        game = move_for(game.pk, game.version, choose(engine.legal_moves(game.state()), rng))
    return game


def test_a_moderators_undo_of_the_games_end_opens_its_table_until_the_game_ends_again(
        clock: Any, commit: Any, client: Client) -> None:
    cup, table = started(clock, commit, rounds=2)
    game = played_out(table)
    last = Move.objects.get(game=game, number=game.version)
    assert played(cup) == [1, 1, 1]
    moderation.undo_to(game.pk, game.version - 1, expected_version=game.version,
                       moderator=make_moderator(), reason="a misclick", force=True)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Round 1: 0 of 1 tables ended" in page
    assert played(cup) == [0, 0, 0]
    with commit():  # nobody is paired for round 2 while the table plays on
        assert pairing_rounds.sweep_tournaments()["seated"] == 0
    again = move_for(game.pk, game.version - 1, last.move)
    assert again.status == Game.Status.FINISHED
    table.refresh_from_db()
    assert table.nuggets == again.state_without_log().scores
    assert played(cup) == [1, 1, 1]
    assert "Round 1: 1 of 1 tables ended" in client.get(
        f"/tournaments/{cup.pk}/").content.decode()


def test_an_undo_after_the_next_round_was_paired_leaves_the_table_as_it_ended(
        clock: Any, commit: Any, caplog: pytest.LogCaptureFixture) -> None:
    cup, table = started(clock, commit, rounds=2)
    game = played_out(table)
    clock.shift(timedelta(minutes=1))
    with commit():
        assert pairing_rounds.sweep_tournaments()["seated"] == 3
    table.refresh_from_db()
    closed = (table.ended_at, table.nuggets)
    moderation.undo_to(game.pk, game.version - 1, expected_version=game.version,
                       moderator=make_moderator(), reason="too late", force=True)
    table.refresh_from_db()
    assert (table.ended_at, table.nuggets) == closed
    assert played(cup) == [1, 1, 1]
    assert "has moved on" in caplog.text


def test_an_undo_of_the_games_end_takes_back_the_no_show_its_close_counted_and_its_drop(
        clock: Any, commit: Any) -> None:
    """A member one no-show short of being dropped missed a deadline in the game: its end
    drops them; the moderator's undo of that end takes the no-show and the drop back, and
    the game's next end counts them again."""
    cup, table = started(clock, commit, rounds=2)
    assert table.game is not None
    absent = table.game.seats.get(number=0)
    entry = Entry.objects.get(tournament=cup, address=absent.email)
    Entry.objects.filter(pk=entry.pk).update(no_shows=table_ends.NO_SHOWS_TO_DROP - 1)
    MissedDeadline.objects.create(game=table.game, seat=absent, version=1,
                                  mailbox=absent.mailbox_key)
    game = played_out(table)
    last = Move.objects.get(game=game, number=game.version)
    entry.refresh_from_db()
    assert entry.no_shows == table_ends.NO_SHOWS_TO_DROP and entry.dropped_at is not None
    moderation.undo_to(game.pk, game.version - 1, expected_version=game.version,
                       moderator=make_moderator(), reason="the deadline was ours", force=True)
    entry.refresh_from_db()
    assert entry.no_shows == table_ends.NO_SHOWS_TO_DROP - 1 and entry.dropped_at is None
    move_for(game.pk, game.version - 1, last.move)
    entry.refresh_from_db()
    assert entry.no_shows == table_ends.NO_SHOWS_TO_DROP and entry.dropped_at is not None


def test_a_no_show_whose_turn_a_moderator_undid_is_not_counted_when_the_table_ends_again(
        clock: Any, commit: Any) -> None:
    """The server's move for a missed deadline ends the game (a no-show at the close); the
    moderator undoes that move ("the deadline was ours"): the no-show is taken back and
    the miss leaves the record, so the player's own last move ends the game with none."""
    cup, table = started(clock, commit, rounds=2)
    assert table.game is not None
    game, rng = table.game, random.Random(0)
    while True:  # through the move service (the undo replays Move rows)
        state = game.state()
        assert state.actor is not None
        for_them = timeout_move(engine.view(state, state.actor), engine.legal_moves(state))
        if engine.apply(state, for_them).finished:
            break
        move = choose(engine.legal_moves(state), rng)
        game = move_for(game.pk, game.version,
                        for_them if engine.apply(state, move).finished else move)
    absent = game.seats.get(number=state.actor)
    entry = Entry.objects.get(tournament=cup, address=absent.email)
    assert game.deadline_at is not None
    assert miss_deadline(game.pk, game.version, game.deadline_at) == "passed"
    entry.refresh_from_db()
    assert entry.no_shows == 1
    ended = Game.objects.get(pk=game.pk)
    moderation.undo_to(game.pk, game.version, expected_version=ended.version,
                       moderator=make_moderator(), reason="the deadline was ours", force=True)
    entry.refresh_from_db()
    assert entry.no_shows == 0 and not MissedDeadline.objects.filter(game=game).exists()
    again = move_for(game.pk, game.version, for_them, seat_number=state.actor)
    assert again.status == Game.Status.FINISHED
    table.refresh_from_db()
    entry.refresh_from_db()
    assert table.ended_at is not None and entry.no_shows == 0
