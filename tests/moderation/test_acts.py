"""games.moderation.services: each moderator act changes the game as promised and is on the
record."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.utils import timezone

from games import engine
from games.game.core.game import EmailMode, Game, Move
from games.game.core.talk_and_notices import GameNotice
from games.mail.core.notifications import Notification
from games.mail.services import follow_ups
from games.moderation import services as moderation
from games.moderation.core.moderation_rows import ModeratorAction
from games.moderation.services.game_clock import MAX_EXTENSION
from games.moves.services import seat_services as services
from games.seats.core.links import find_seat, link_for
from games.seats.core.seat import Seat
from tests.moderation_support import log_types, make_moderator, play
from tests.support import GameWithLinks, assert_replay_matches, seat_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def mod(db: None) -> User:
    return make_moderator()


def last_action(game: Game) -> ModeratorAction:
    return ModeratorAction.objects.filter(game=game).latest("id")


def notices(game: Game) -> list[GameNotice]:
    return list(GameNotice.objects.filter(game=game).order_by("id"))


# ---- undo ----------------------------------------------------------------------------------


def test_undo_drops_later_moves_and_replays(game: GameWithLinks, mod: User,
                                            commit: Any) -> None:
    snapshots = play(game, random.Random(1), moves=6)
    with commit():
        plan = moderation.undo_to(game.game.pk, 4, expected_version=6, moderator=mod,
                                  reason="clicked the wrong card", public_note="misclick")
    g = game.refresh()
    assert g.version == 4 and g.state().to_json() == snapshots[4] and g.moves.count() == 4
    assert g.actor is not None and g.actor == g.state().actor and g.deadline_at is not None
    assert [m.number for m in plan.dropped] == [5, 6]
    told = Notification.objects.get(kind=Notification.Kind.TURN, key__contains=":undo=")
    assert told.seat == Seat.objects.get(game=g, number=g.actor)  # the seat to act, again
    assert told.params["version"] == 4
    action = last_action(g)
    assert action.kind == "undo" and action.moderator == mod
    assert action.reason == "clicked the wrong card"
    assert action.details["from_version"] == 6 and action.details["to_version"] == 4
    assert [d["number"] for d in action.details["dropped"]] == [5, 6]
    notice = notices(g)[-1]
    assert notice.kind == "moderator"
    assert notice.params["first"] == 5 and notice.params["last"] == 6
    assert notice.params["note"] == "misclick" and "clicked" not in str(notice.params)
    assert_replay_matches(g)
    # and play goes on from there
    play(game, random.Random(2), moves=3)
    assert_replay_matches(game.refresh())


def test_undo_refuses_a_stale_confirmation_and_bad_numbers(game: GameWithLinks,
                                                           mod: User) -> None:
    play(game, random.Random(1), moves=3)
    with pytest.raises(services.StaleVersion):
        moderation.undo_to(game.game.pk, 1, expected_version=2, moderator=mod, reason="x")
    for to in (-1, 3, 9):
        with pytest.raises(moderation.ModerationError):
            moderation.undo_to(game.game.pk, to, expected_version=3, moderator=mod, reason="x")
    with pytest.raises(moderation.ModerationError, match="reason"):
        moderation.undo_to(game.game.pk, 1, expected_version=3, moderator=mod, reason="  ")
    assert game.refresh().version == 3 and not ModeratorAction.objects.exists()


def test_undo_across_a_round_end_needs_force(game_factory: Any, mod: User) -> None:
    g = game_factory(players=3, seed=5)
    play(g, random.Random(5), until=lambda game: "round_end" in log_types(game))
    end = g.game.version
    plan = moderation.plan_undo(g.game, end - 1)
    assert plan.crosses_round_end and plan.undoes_round_end
    with pytest.raises(moderation.ModerationError) as refused:
        moderation.undo_to(g.game.pk, end - 1, expected_version=end, moderator=mod,
                           reason="x")
    assert refused.value.code == "crosses_round_end"
    assert g.refresh().version == end
    moderation.undo_to(g.game.pk, end - 1, expected_version=end, moderator=mod, reason="x",
                       force=True)
    g.refresh()
    assert "round_end" not in log_types(g.game) and last_action(g.game).details["forced"]


def test_undo_of_a_finished_game_makes_it_active(game_factory: Any, mod: User) -> None:
    g = game_factory(players=3, seed=2)
    snapshots = play(g, random.Random(2))
    assert g.refresh().status == Game.Status.FINISHED
    last = g.game.version
    moderation.undo_to(g.game.pk, last - 1, expected_version=last, moderator=mod, reason="x",
                       force=True)
    game = g.refresh()
    assert game.status == Game.Status.ACTIVE and game.state().to_json() == snapshots[last - 1]
    assert game.deadline_at is not None


def test_undo_while_paused_stays_paused_with_a_full_turn(game: GameWithLinks, mod: User) -> None:
    play(game, random.Random(3), moves=2)
    moderation.pause_game(game.game.pk, moderator=mod, reason="x")
    moderation.undo_to(game.game.pk, 1, expected_version=2, moderator=mod, reason="x")
    g = game.refresh()
    assert g.status == Game.Status.PAUSED and g.deadline_at is None
    assert g.paused_time_left == timedelta(hours=g.hours_per_move)


# ---- the clock -----------------------------------------------------------------------------


def test_extend_deadline_is_capped_per_turn(game: GameWithLinks, mod: User) -> None:
    before = game.refresh().deadline_at
    assert before is not None
    moderation.extend_deadline(game.game.pk, 48, moderator=mod, reason="travelling")
    g = game.refresh()
    assert g.deadline_at == before + timedelta(hours=48)
    assert g.deadline_extension == timedelta(hours=48)
    assert last_action(g).details["hours"] == 48 and notices(g)[-1].params["hours"] == 48
    left = int((MAX_EXTENSION - timedelta(hours=48)).total_seconds() // 3600)
    with pytest.raises(moderation.ModerationError) as refused:
        moderation.extend_deadline(game.game.pk, left + 1, moderator=mod, reason="more")
    assert refused.value.code == "extension_capped"
    moderation.extend_deadline(game.game.pk, left, moderator=mod, reason="all of it")
    assert game.refresh().deadline_extension == MAX_EXTENSION
    # the next turn starts with no extension
    play(game, random.Random(1), moves=1)
    assert game.refresh().deadline_extension == timedelta()
    moderation.extend_deadline(game.game.pk, 24, moderator=mod, reason="again")


def test_extending_a_passed_deadline_counts_from_now(game: GameWithLinks, mod: User) -> None:
    deadline = game.refresh().deadline_at
    assert deadline is not None
    later = deadline + timedelta(hours=30)
    with time_machine.travel(later, tick=False):
        moderation.extend_deadline(game.game.pk, 12, moderator=mod, reason="waited on us")
        assert game.refresh().deadline_at == later + timedelta(hours=12)
        assert game.game.reminder_at is not None and game.game.reminder_at > later


def test_pause_remembers_the_time_left_and_resume_restores_it(game: GameWithLinks,
                                                              mod: User) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        deadline = game.refresh().deadline_at
        assert deadline is not None
    with time_machine.travel(deadline - timedelta(hours=5), tick=False):
        moderation.pause_game(game.game.pk, moderator=mod, reason="dispute")
    g = game.refresh()
    assert g.status == Game.Status.PAUSED and g.deadline_at is None
    assert g.paused_time_left == timedelta(hours=5)
    assert g.actor is not None
    seat = Seat.objects.select_related("game").get(game=g, number=g.actor)
    with pytest.raises(services.GameNotPlayable):
        seat_move(seat, g.version, engine.legal_moves(g.state())[0])
    later = deadline + timedelta(days=3)
    with time_machine.travel(later, tick=False):
        moderation.resume(game.game.pk, moderator=mod, reason="settled")
    g = game.refresh()
    assert g.status == Game.Status.ACTIVE and g.deadline_at == later + timedelta(hours=5)
    assert g.paused_time_left is None
    assert [a.kind for a in ModeratorAction.objects.filter(game=g).order_by("id")] == [
        "pause", "resume"]
    with pytest.raises(moderation.ModerationError):
        moderation.resume(game.game.pk, moderator=mod, reason="twice")


def test_cancel_ends_the_game(game: GameWithLinks, mod: User) -> None:
    moderation.cancel(game.game.pk, moderator=mod, reason="players left")
    g = game.refresh()
    assert g.status == Game.Status.CANCELLED and g.deadline_at is None
    with pytest.raises(moderation.ModerationError):
        moderation.cancel(game.game.pk, moderator=mod, reason="again")
    with pytest.raises(moderation.ModerationError):
        moderation.extend_deadline(game.game.pk, 1, moderator=mod, reason="x")


# ---- seats ---------------------------------------------------------------------------------


def test_replace_player_keeps_hand_and_role_and_kills_the_old_link(
        game: GameWithLinks, mod: User, commit: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    Seat.objects.filter(pk=game.seats[1].pk).update(
        missed_turns=3, absent_since=timezone.now(), email_problem_at=timezone.now(),
        email_mode=EmailMode.LINKS_ONLY)
    before = game.refresh().snapshot
    invited: list[int] = []
    monkeypatch.setattr(follow_ups, "send_invitation", invited.append)
    with commit():
        moderation.replace_player(game.seats[1].pk, name="Zoe", email="zoe@example.com",
                                  moderator=mod, reason="Player1 left",
                                  public_note="welcome Zoe")
    seat = Seat.objects.get(pk=game.seats[1].pk)
    assert (seat.player_name, seat.email, seat.missed_turns) == ("Zoe", "zoe@example.com", 0)
    assert seat.absent_since is None and seat.email_problem_at is None
    assert seat.email_mode == EmailMode.EACH_TURN  # so the invitation reaches the new player
    assert game.refresh().snapshot == before  # hand, role, gold stay with the seat
    assert find_seat(game.tokens[1]) is None
    [seat_id] = invited
    link = link_for(seat)
    assert seat_id == seat.pk and find_seat(link.rsplit("/", 2)[-2]) == seat
    details = last_action(game.game).details
    assert details["old"]["name"] == "Player1" and details["new"]["email"] == "zoe@example.com"
    notice = notices(game.game)[-1]
    assert notice.kind == "replaced" and notice.params["new"] == "Zoe"
    assert "p1@example.com" not in str(notice.params) and "zoe@" not in str(notice.params)


def test_replace_player_checks_the_new_player(game: GameWithLinks, mod: User) -> None:
    for name, email in [("", "x@example.com"), ("X", "nope"), ("X", "p2@example.com")]:
        with pytest.raises(moderation.ModerationError):
            moderation.replace_player(game.seats[1].pk, name=name, email=email,
                                      moderator=mod, reason="x")
    assert Seat.objects.get(pk=game.seats[1].pk).player_name == "Player1"


def test_rotate_link_mails_a_new_link(game: GameWithLinks, mod: User,
                                      commit: Any,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    invited: list[int] = []
    monkeypatch.setattr(follow_ups, "send_invitation", invited.append)
    with commit():
        moderation.rotate_seat_link(game.seats[0].pk, moderator=mod, reason="leaked")
    assert find_seat(game.tokens[0]) is None
    [seat_id] = invited
    link = link_for(Seat.objects.get(pk=seat_id))
    assert find_seat(link.rsplit("/", 2)[-2]).pk == seat_id == game.seats[0].pk  # type: ignore[union-attr]
    assert last_action(game.game).kind == "rotate_link"


def test_moderator_move_is_recorded_as_such(game: GameWithLinks, mod: User) -> None:
    g = game.refresh()
    actor = g.actor
    move = next(m for m in engine.legal_moves(g.state()) if m["type"] == "pass")
    moderation.moderator_move(g.pk, move, expected_version=0, moderator=mod,
                              reason="asked by the player")
    row = Move.objects.get(game=g, number=1)
    assert row.actor_kind == Move.Actor.MODERATOR and row.moderator == mod
    assert row.seat_number == actor and row.move == {**move, "seat": actor}
    assert last_action(g).details["move"] == move
    assert notices(g)[-1].params == {"action": "move", "seat": actor, "number": 1,
                                     "log_at": notices(g)[-1].params["log_at"]}
    with pytest.raises(services.StaleVersion):
        moderation.moderator_move(g.pk, move, expected_version=0, moderator=mod, reason="x")
    with pytest.raises(moderation.ModerationError):
        moderation.moderator_move(g.pk, {"type": "pass", "card": "nope"}, expected_version=1,
                                  moderator=mod, reason="x")
    assert_replay_matches(g)


def test_resend_turn_email_sends_it_again(game: GameWithLinks, mod: User,
                                          commit: Any) -> None:
    with commit():
        pass  # the beat plans the game's own first turn email
    keys = set(Notification.objects.values_list("key", flat=True))
    for _ in range(2):
        with commit():
            moderation.resend_turn_email(game.game.pk, moderator=mod, reason="bounced")
    action = last_action(game.game)
    assert action.kind == "resend_turn_email" and action.details["seat"] == game.game.actor
    again = Notification.objects.exclude(key__in=keys).filter(kind=Notification.Kind.TURN)
    assert again.count() == 2 and {n.to_email for n in again} == {"p0@example.com"}
    moderation.pause_game(game.game.pk, moderator=mod, reason="x")
    with pytest.raises(moderation.ModerationError):
        moderation.resend_turn_email(game.game.pk, moderator=mod, reason="paused")


# ---- integrity -----------------------------------------------------------------------------


def test_verify_integrity_passes_and_finds_the_first_bad_move(game: GameWithLinks,
                                                               mod: User) -> None:
    play(game, random.Random(4), moves=8)
    report = moderation.verify_integrity(game.game.pk, moderator=mod, reason="routine")
    assert report.ok and report.moves == 8 and report.first_bad_move is None
    assert last_action(game.game).details["ok"] is True
    # a move row changed behind our back: replay diverges from move 5 on
    row = Move.objects.get(game=game.game, number=5)
    state = engine.replay(3, game.game.seed, [m.move for m in game.game.moves.order_by(
        "number")][:4])
    other = next(m for m in engine.legal_moves(state) if {**m, "seat": state.actor} != row.move)
    Move.objects.filter(pk=row.pk).update(move={**other, "seat": state.actor})
    report = moderation.verify_integrity(game.game.pk, moderator=mod, reason="suspicious")
    assert not report.ok and report.first_bad_move is not None and report.first_bad_move <= 5
    assert "log" in report.differing_keys or report.problems


def test_verify_integrity_reports_gaps_and_refused_moves(game: GameWithLinks,
                                                          mod: User) -> None:
    play(game, random.Random(4), moves=4)
    Move.objects.filter(game=game.game, number=3).delete()
    report = moderation.verify_integrity(game.game.pk, moderator=mod, reason="x")
    assert not report.ok and report.first_bad_move == 3
    assert any("missing" in p for p in report.problems)
