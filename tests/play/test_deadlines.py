"""Deadlines with time-machine: the timeout policy at the deadline (once, never before),
absence after three misses, the "wait" policy, claims and leases, digests."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import Group, User
from django.core import mail
from django.test import override_settings

from games import engine, tasks
from games.clock.services import sweeps as deadlines
from games.game.core.game import EmailMode, Game, Move, TimeoutPolicy
from games.game.core.talk_and_notices import GameNotice
from games.kit.sweep_marks import SweepMark
from games.mail.core.notifications import Notification
from games.moderation import services as moderation
from games.seats.core.seat import Seat
from tests.email_support import play_until, sent_to, system_moves
from tests.support import START, assert_replay_matches, make_game, seat_move

pytestmark = pytest.mark.django_db
DAY = timedelta(hours=24)


def sweep(commit: Any) -> int:
    with commit():
        return int(tasks.sweep_deadlines())


def test_the_timeout_fires_once_at_the_deadline_and_not_before(clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    game = g.refresh()
    assert game.deadline_at == START + DAY
    last_card = engine.view(game.state(), 0)["hand"][-1]["id"]
    clock.move_to(START + DAY - timedelta(seconds=1))
    assert sweep(commit) == 0
    assert not system_moves(game)
    clock.move_to(START + DAY)
    before = len(mail.outbox)
    assert sweep(commit) == 1
    [move] = system_moves(game)
    assert move.seat_number == 0 and move.move["type"] == "pass"
    assert move.move["card"] == last_card  # the card drawn most recently (docs/playing.md)
    game = g.refresh()
    assert game.version == 1 and game.actor == 1 and game.deadline_at == START + 2 * DAY
    assert Seat.objects.get(pk=g.seats[0].pk).missed_turns == 1
    notice = GameNotice.objects.get(game=game, kind="timeout")
    assert notice.params["seat"] == 0 and notice.params["policy"] == "auto_pass"
    new = mail.outbox[before:]
    assert {m.to[0] for m in new} == {"p0@example.com", "p1@example.com"}
    missed = next(m for m in new if "missed the deadline" in m.subject)
    assert "the card you drew last" in missed.body
    turn = next(m for m in new if "your turn" in m.subject)
    assert "Player0 missed the deadline" in turn.body  # the table notice, since your turn
    for _ in range(3):
        assert sweep(commit) == 0
    assert len(system_moves(game)) == 1 and len(mail.outbox) == before + 2
    assert_replay_matches(game)


@override_settings(MODERATOR_EMAILS=["mods@example.com"])
def test_three_missed_deadlines_in_a_row_mark_the_seat_absent(clock: Any, commit: Any) -> None:
    moderator = User.objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    moderator.groups.add(Group.objects.get_or_create(name="moderators")[0])
    with commit():
        g = make_game(players=3, seed=1, start=True)
    for turn in range(1, 10):  # every seat misses three deadlines
        clock.move_to(START + turn * DAY)
        assert sweep(commit) == 1
    seats = {s.number: s for s in Seat.objects.filter(game=g.game)}
    assert all(s.missed_turns == 3 and s.absent_since is not None for s in seats.values())
    assert GameNotice.objects.filter(game=g.game, kind="absent").count() == 3
    alerts = Notification.objects.filter(kind="mod_alert")
    assert sorted(alerts.values_list("to_email", flat=True)) == sorted(
        ["mod@example.com", "mods@example.com"] * 3)
    assert all(a.status == "sent" and a.params["topic"] == "absent" for a in alerts)
    assert len(sent_to("mods@example.com")) == 3
    absent_mail = [m for m in sent_to("p0@example.com") if "missed" in m.subject][-1]
    assert "you are now marked absent" in absent_mail.body
    # Seat 0 is to act again: playing by itself ends the absence.
    game = g.refresh()
    move = next(m for m in engine.legal_moves(game.state()) if m["type"] == "pass")
    seat_move(g.seats[0], game.version, move)
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert seat.missed_turns == 0 and seat.absent_since is None


def test_a_missed_deadline_stays_with_the_person_who_missed_it(
        clock: Any, commit: Any, django_user_model: Any) -> None:
    from games.moderation.services import seats
    from games.people.core.mailboxes import mailbox_hash
    from games.seats.core.reliability import MissedDeadline

    with commit():
        g = make_game(players=3, seed=1, start=True)
    clock.move_to(START + DAY)
    assert sweep(commit) == 1
    [missed] = MissedDeadline.objects.all()
    assert (missed.seat_id, missed.mailbox) == (g.seats[0].pk, mailbox_hash("P0@example.com"))
    assert "p0@example.com" not in str(vars(missed))  # only the mailbox's hash is kept
    moderator = django_user_model.objects.create_user("mod", password="x")
    seats.replace_player(g.seats[0].pk, name="Zed", email="zed@example.com",
                         moderator=moderator, reason="left")
    assert not MissedDeadline.objects.filter(mailbox=mailbox_hash("zed@example.com")).exists()
    assert MissedDeadline.objects.filter(mailbox=mailbox_hash("p0@example.com")).count() == 1


def test_two_misses_then_a_move_start_the_count_again(clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    for turn in range(1, 7):
        clock.move_to(START + turn * DAY)
        sweep(commit)
    assert Seat.objects.get(pk=g.seats[0].pk).missed_turns == 2
    game = g.refresh()
    move = next(m for m in engine.legal_moves(game.state()) if m["type"] == "pass")
    seat_move(g.seats[0], game.version, move)  # at START + 6 days
    assert Seat.objects.get(pk=g.seats[0].pk).missed_turns == 0
    for turn in range(7, 10):
        clock.move_to(START + turn * DAY)
        assert sweep(commit) == 1
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert seat.missed_turns == 1 and seat.absent_since is None


@override_settings(MODERATOR_EMAILS=["mods@example.com"])
def test_the_wait_policy_only_notifies(clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    Game.objects.filter(pk=g.game.pk).update(timeout_policy=TimeoutPolicy.WAIT)
    clock.move_to(START + DAY)
    assert sweep(commit) == 1
    game = g.refresh()
    assert game.version == 0 and game.deadline_at is None and game.actor == 0
    assert GameNotice.objects.get(game=game, kind="timeout").params["policy"] == "wait"
    assert "The game waits for you" in sent_to("p0@example.com")[-1].body
    assert Notification.objects.get(kind="mod_alert").params["topic"] == "waiting"
    clock.shift(10 * DAY)
    assert sweep(commit) == 0
    assert Seat.objects.get(pk=g.seats[0].pk).missed_turns == 0


def test_a_player_who_moves_after_the_sweep_wins(clock: Any, commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    clock.move_to(START + DAY)
    batches: list[Any] = []
    assert deadlines.sweep_deadlines(batches.append) == 1
    assert batches == [[[g.game.pk, 0, (START + DAY).isoformat()]]]
    move = next(m for m in engine.legal_moves(g.refresh().state()) if m["type"] == "pass")
    seat_move(g.seats[0], 0, move)
    assert deadlines.handle_deadlines(batches[0]) == {"passed": 0, "waiting": 0, "": 1}
    assert not system_moves(g.game)
    assert g.refresh().deadline_at == START + 2 * DAY


def test_a_lost_batch_comes_back(clock: Any, commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    clock.move_to(START + DAY)
    assert deadlines.sweep_deadlines(lambda batch: None) == 1  # ... and the task is lost
    clock.shift(timedelta(minutes=1))  # the next sweep looks OVERLAP back: once more
    assert deadlines.sweep_deadlines(lambda batch: None) == 1
    clock.shift(timedelta(minutes=1))
    assert deadlines.sweep_deadlines(lambda batch: None) == 0
    clock.move_to(START + DAY + deadlines.LOST_AFTER)
    assert sweep(commit) == 1
    assert len(system_moves(g.game)) == 1
    assert sweep(commit) == 0


def test_the_sweep_claims_its_interval_once_and_enqueues_batches(
        clock: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    games = [make_game(players=3, seed=s, start=True).game for s in range(5)]
    Game.objects.filter(pk=games[4].pk).update(deadline_at=START + 2 * DAY)
    Game.objects.filter(pk=games[3].pk).update(status=Game.Status.PAUSED)
    monkeypatch.setattr(deadlines, "BATCH", 2)
    sent: list[Any] = []
    clock.move_to(START + DAY)
    assert deadlines.sweep_deadlines(sent.append) == 3
    assert [len(batch) for batch in sent] == [2, 1]
    assert sorted(row[0] for batch in sent for row in batch) == sorted(g.pk for g in games[:3])
    # A second sweep that read the mark before the first moved it claims nothing.
    stale = SweepMark(pk=SweepMark.objects.get(name="deadlines").pk, name="deadlines",
                      reached=deadlines.EPOCH)
    with mock.patch.object(SweepMark.objects, "get_or_create", return_value=(stale, False)):
        assert deadlines.sweep_deadlines(sent.append) == 0


def test_a_timeout_during_the_gold_hand_out_takes_the_best_gold_card(
        clock: Any, commit: Any) -> None:
    g = make_game(players=3, seed=5, start=True)
    game = play_until(g, lambda game: game.state().phase == "gold", commit, seed=5)
    picker = game.actor
    assert picker is not None
    offer = engine.view(game.state(), picker)["gold_offer"]
    best = max(offer, key=lambda c: c["value"])
    clock.move_to(game.deadline_at)
    assert sweep(commit) == 1
    move = Move.objects.get(game=game, number=game.version + 1)
    assert move.actor_kind == "system" and move.move["type"] == "pick_gold"
    assert move.move["card"] == best["id"]
    assert "worth" in sent_to(f"p{picker}@example.com")[-1].body


def test_paused_and_finished_games_have_no_deadline_sweep(clock: Any, commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    Game.objects.filter(pk=g.game.pk).update(status=Game.Status.PAUSED)
    clock.move_to(START + 3 * DAY)
    assert sweep(commit) == 0
    assert int(tasks.sweep_reminders()) == 0


# ---- daily digests ----------------------------------------------------------------------


@override_settings(DIGEST_HOUR=8)
def test_the_daily_digest_lists_every_waiting_game_once_a_day(clock: Any, commit: Any) -> None:
    first = make_game(players=3, seed=1, start=True)
    second = make_game(players=3, seed=2, start=True)
    for g in (first, second):
        Seat.objects.filter(pk=g.seats[0].pk).update(email_mode=EmailMode.DAILY_DIGEST,
                                                     time_zone="Asia/Tokyo")
    Game.objects.filter(pk=second.game.pk).update(name="Second game")
    clock.move_to(datetime.fromisoformat("2026-03-02 22:59:00+00:00"))  # 07:59 in Tokyo
    with commit():
        assert tasks.sweep_digests() == 0
    clock.move_to(datetime.fromisoformat("2026-03-02 23:00:00+00:00"))  # 08:00 in Tokyo
    with commit():
        assert tasks.sweep_digests() == 1
        assert tasks.sweep_digests() == 0
    [digest] = sent_to("p0@example.com")
    assert "2 games are waiting for your move" in digest.subject
    assert "Test game" in digest.body and "Second game" in digest.body
    for g in (first, second):
        assert f"/play/{g.tokens[0]}/" in digest.body
    assert "(Asia/Tokyo)" in digest.body
    assert "List-Unsubscribe" in digest.extra_headers
    clock.move_to(datetime.fromisoformat("2026-03-03 23:00:00+00:00"))
    with commit():
        assert tasks.sweep_digests() == 1


@override_settings(DIGEST_HOUR=8)
def test_no_digest_when_nothing_waits(clock: Any, commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    Seat.objects.filter(pk=g.seats[1].pk).update(email_mode=EmailMode.DAILY_DIGEST)
    clock.move_to(START)
    with commit():
        assert tasks.sweep_digests() == 0


def test_a_moderators_undo_takes_the_deadlines_missed_in_the_undone_turns_off_the_record(
        clock: Any, commit: Any) -> None:
    """Seats 0, 1 and 2 miss a deadline each; the moderator undoes to move 1 (the server's
    pass for seat 0 stays): seat 0's miss stands, seat 1's turn begins afresh and seat
    2's turn is gone, so their misses leave the players' records (and a table closed
    again does not count them)."""
    from games.people.core.mailboxes import mailbox_hash
    from games.ratings.services.player_record import player_record
    from games.seats.core.reliability import MissedDeadline
    from tests.moderation_support import make_moderator

    with commit():
        g = make_game(players=3, seed=1, start=True)
    for turn in range(1, 4):
        clock.move_to(START + turn * DAY)
        assert sweep(commit) == 1
    assert player_record("p1@example.com").deadlines_missed == 1
    with commit():
        moderation.undo_to(g.game.pk, 1, expected_version=3, moderator=make_moderator(),
                           reason="our mail server was down")
    assert sorted(MissedDeadline.objects.values_list("mailbox", "version")) == [
        (mailbox_hash("p0@example.com"), 0)]
    assert [player_record(f"p{n}@example.com").deadlines_missed for n in range(3)] == [
        1, 0, 0]
    # Seat 1 misses its turn again (a day after the undo): recorded again.
    game = g.refresh()
    assert game.actor == 1 and game.deadline_at is not None
    clock.move_to(game.deadline_at)
    assert sweep(commit) == 1
    assert player_record("p1@example.com").deadlines_missed == 1


def test_an_undo_gives_each_seat_its_run_of_misses_back_and_lifts_the_absence_it_made(
        clock: Any, commit: Any) -> None:
    """Seats 1 and 2 are marked absent by their third miss in a row; the moderator undoes
    to move 7, before those third misses: both are back at two misses and not absent, seat
    0 (who played move 4 itself) at one. Seat 1 missing its fresh turn is absent again;
    an undo of a seat's own move gives the seat its run back."""
    from tests.moderation_support import make_moderator

    with commit():
        g = make_game(players=3, seed=1, start=True)

    def miss() -> None:
        deadline = g.refresh().deadline_at
        assert deadline is not None
        clock.move_to(deadline)
        assert sweep(commit) == 1

    for _turn in range(3):
        miss()
    game = g.refresh()
    with commit():
        seat_move(g.seats[0], game.version,
                  next(m for m in engine.legal_moves(game.state()) if m["type"] == "pass"))
    for _turn in range(6):
        miss()

    def runs() -> list[tuple[int, bool]]:
        return [(s.missed_turns, s.absent_since is not None)
                for s in Seat.objects.filter(game=g.game).order_by("number")]

    assert runs() == [(2, False), (3, True), (3, True)]
    moderator = make_moderator()
    with commit():
        moderation.undo_to(g.game.pk, 7, expected_version=10, moderator=moderator,
                           reason="our mail server was down")
    assert runs() == [(1, False), (2, False), (2, False)]
    assert g.refresh().actor == 1
    miss()
    assert runs() == [(1, False), (3, True), (2, False)]
    # Seat 2 misses again (absent), seat 0 plays itself (its run is over); undoing seat
    # 0's own move gives it back its run of one, and marks nobody absent anew.
    miss()
    game = g.refresh()
    with commit():
        seat_move(g.seats[0], game.version,
                  next(m for m in engine.legal_moves(game.state()) if m["type"] == "pass"))
    assert runs() == [(0, False), (3, True), (3, True)]
    with commit():
        moderation.undo_to(g.game.pk, 9, expected_version=10, moderator=moderator,
                           reason="a card played by mistake")
    assert runs() == [(1, False), (3, True), (3, True)]
