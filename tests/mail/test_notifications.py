"""Turn, round-end, game-end and invitation emails: when they go out, what they carry,
exactly once, and retried after a provider error."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
import time_machine
from anymail.exceptions import AnymailRecipientsRefused
from celery import current_app
from django.core import mail
from django.db import OperationalError
from django.test import override_settings
from django.utils import timezone

from games import engine
from games.game.core.follow_up_rows import FollowUp
from games.game.core.game import EmailMode, Game
from games.mail.core import letter_registry
from games.mail.core.notifications import Notification
from games.mail.services import follow_ups, plan, send
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from games.tasks import follow_up_moves, requeue_unsent, send_notification
from tests.email_support import FlakyBackend, play_one, play_until, sent_to
from tests.support import make_game, queued_tasks, work_off

pytestmark = pytest.mark.django_db
START = "2026-03-02 09:00:00+00:00"
FLAKY = "tests.email_support.FlakyBackend"


@time_machine.travel(START, tick=False)
def test_starting_a_game_invites_everyone_and_emails_the_first_player(commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True, invite=True)
    subjects = [m.subject for m in mail.outbox]
    assert sum("invited" in s for s in subjects) == 3
    turn = [m for m in sent_to("p0@example.com") if "your turn" in m.subject]
    assert len(turn) == 1
    message = turn[0]
    html = message.alternatives[0][0]
    link = f"/play/{g.tokens[0]}/"
    assert link in message.body and link in html
    assert "Tuesday 3 March 2026, 09:00 (UTC)" in message.body  # 24 hours per move
    assert "gold-digger" in message.body or "saboteur" in message.body
    for card in engine.view(g.game.state(), 0)["hand"]:
        assert card["id"] not in message.body
    assert "<style" not in html and 'style="' in html  # CSS inlined
    assert 'class="maze"' in html and "<img" not in html
    headers = message.extra_headers
    assert headers["Message-ID"].endswith("@127.0.0.1>")
    assert headers["List-Unsubscribe"].startswith("<http://127.0.0.1:8000/mail/unsubscribe/")
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    note = Notification.objects.get(kind="turn")
    assert note.status == "sent" and note.message_id == headers["Message-ID"]
    assert note.subject == message.subject and note.attempts == 1


def test_each_turn_start_emails_the_seat_to_act(commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    rng = random.Random(1)
    for _ in range(4):
        before = len(mail.outbox)
        game = play_one(g, rng, commit)
        new = mail.outbox[before:]
        assert [m.to for m in new] == [[f"p{game.actor}@example.com"]]
        assert "your turn" in new[0].subject
    assert Notification.objects.filter(kind="turn").count() == 4


def test_the_turn_email_tells_what_happened_since_your_last_turn(commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    rng = random.Random(2)
    for _ in range(3):
        play_one(g, rng, commit)
    body = sent_to("p0@example.com")[-1].body
    since = body.split("Since your last turn:")[1].split("The maze:")[0]
    assert "Player1" in since and "Player2" in since
    assert since.count("\n- ") == 2  # the two moves after seat 0's own


def test_gold_picks_get_a_pick_a_gold_card_email(commit: Any) -> None:
    g = make_game(players=3, seed=5, start=True)
    game = play_until(g, lambda game: game.state().phase == "gold", commit, seed=5)
    picker = game.actor
    assert picker is not None
    message = sent_to(f"p{picker}@example.com")[-1]
    assert "pick a gold card" in message.subject
    offer = engine.view(game.state(), picker)["gold_offer"]
    assert "Choose one of the gold cards offered to you" in message.body
    assert f"{max(g['value'] for g in offer)} nugget" in message.body


def test_round_end_and_game_end_emails_once_per_seat(commit: Any) -> None:
    g = make_game(players=3, seed=5, start=True)
    game = play_until(g, lambda game: game.status == Game.Status.FINISHED, commit, seed=5)
    for number in range(3):
        address = f"p{number}@example.com"
        rounds = [m for m in sent_to(address) if "is over" in m.subject and "round" in m.subject]
        ends = [m for m in sent_to(address) if "the game is over" in m.subject]
        assert len(rounds) == 2 and len(ends) == 1  # round 3 is told in the game-end email
        view = engine.view(game.state(), number)
        for name in ("Player0", "Player1", "Player2"):
            assert name in ends[0].body
        assert f"You ended with {view['players'][number]['gold']} nugget" in ends[0].body
        assert "Everyone's role this round" in rounds[0].body
    assert Notification.objects.filter(kind="round_end").count() == 6


def test_email_modes_digest_and_links_only_get_no_turn_emails(commit: Any) -> None:
    g = make_game(players=3, seed=1, start=False)
    services.set_email_mode([g.seats[0].pk], EmailMode.DAILY_DIGEST)
    services.set_email_mode([g.seats[1].pk], EmailMode.LINKS_ONLY)
    with commit():
        game_setup.start_game(g.game.pk)
    assert not sent_to("p0@example.com")
    rng = random.Random(1)
    play_one(g, rng, commit)  # seat 1's turn: links only
    assert not sent_to("p1@example.com")
    play_one(g, rng, commit)
    assert len(sent_to("p2@example.com")) == 1


def test_running_any_task_twice_sends_once(commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    count = len(mail.outbox)
    with commit():
        plan.queue(plan.after_move(g.game.pk, 0))  # the start's emails planned again
        follow_up_moves.delay()
        follow_ups.after_game_started(g.game.pk, 0)
    for note in Notification.objects.all():  # a send task delivered again
        assert send_notification.apply(args=(note.pk,)).get() == ""
    assert len(mail.outbox) == count
    assert Notification.objects.filter(status="sent").count() == count


def test_planning_writes_the_row_before_anything_is_sent() -> None:
    g = make_game(players=3, seed=1, start=True)
    ids = plan.create(plan.after_move(g.game.pk, 0))
    assert Notification.objects.get(pk=ids[0]).status == "pending"
    assert not mail.outbox
    assert plan.create(plan.after_move(g.game.pk, 0)) == []  # the key exists


@override_settings(EMAIL_BACKEND=FLAKY, EMAIL_RETRY_SECONDS=60)
def test_a_provider_error_is_retried_with_backoff_and_sends_once() -> None:
    g = make_game(players=3, seed=1, start=True)
    [note_id] = plan.create(plan.after_move(g.game.pk, 0))
    FlakyBackend.arm(failures=2)
    with time_machine.travel(START, tick=False):
        first = send.deliver(note_id)
        assert first == send.Outcome("retrying", 60)
        note = Notification.objects.get(pk=note_id)
        assert note.status == "retrying" and note.attempts == 1
        assert "provider unreachable" in note.last_error
        assert send.deliver(note_id).retry_in == 120  # doubled
    assert send.deliver(note_id).status == "sent"
    assert send.deliver(note_id).status == ""  # nothing left to claim
    assert FlakyBackend.calls == 3 and len(mail.outbox) == 1
    note.refresh_from_db()
    assert note.status == "sent" and note.attempts == 3 and note.last_error == ""


@override_settings(EMAIL_BACKEND=FLAKY, EMAIL_MAX_ATTEMPTS=3)
def test_running_out_of_attempts_records_a_permanent_failure() -> None:
    g = make_game(players=3, seed=1, start=True)
    [note_id] = plan.create(plan.after_move(g.game.pk, 0))
    FlakyBackend.arm(failures=10)
    outcomes = [send.deliver(note_id).status for _ in range(4)]
    assert outcomes == ["retrying", "retrying", "failed", ""]
    assert Notification.objects.get(pk=note_id).status == "failed"
    assert not mail.outbox


@override_settings(EMAIL_BACKEND=FLAKY)
def test_a_refused_address_fails_at_once_and_flags_the_seat() -> None:
    g = make_game(players=3, seed=1, start=True)
    [note_id] = plan.create(plan.after_move(g.game.pk, 0))
    FlakyBackend.arm(failures=1, error=AnymailRecipientsRefused("refused"))
    assert send.deliver(note_id).status == "failed"
    assert Seat.objects.get(pk=g.seats[0].pk).email_problem_at is not None


def test_the_send_task_retries_through_celery_on_a_provider_error() -> None:
    g = make_game(players=3, seed=1, start=True)
    [note_id] = plan.create(plan.after_move(g.game.pk, 0))
    with mock.patch.object(send, "deliver", return_value=send.Outcome("retrying", 60)), \
            mock.patch.object(send_notification, "retry", side_effect=RuntimeError) as retry:
        request = mock.Mock(is_eager=False)
        with mock.patch.object(type(send_notification), "request", request, create=True), \
                pytest.raises(RuntimeError):
            send_notification.run(note_id)
    retry.assert_called_once_with(countdown=60)


def test_a_lost_send_is_sent_by_requeue_unsent(commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    with mock.patch.object(send_notification, "delay", side_effect=OSError("broker down")), \
            commit():
        follow_ups.after_game_started(g.game.pk, 0)
    note = Notification.objects.get(kind="turn")
    assert note.status == "pending" and not mail.outbox
    with time_machine.travel(note.created_at, tick=False) as traveller:
        assert requeue_unsent() == 0  # not yet: its task may still be on its way
        traveller.shift(180)
        with commit():  # the beat's task, then the worker sends what it queued
            assert requeue_unsent() == 1
    assert len(mail.outbox) == 1


def test_a_moves_emails_are_planned_while_the_broker_is_down(commit: Any) -> None:
    """A move's follow-up is a row in its own transaction, not a task: no broker is
    needed to plan its emails (their sends wait for `requeue_unsent`)."""
    g = make_game(players=3, seed=1, start=True)
    with mock.patch.object(send_notification, "delay", side_effect=OSError("broker down")), \
            commit():
        follow_ups.after_game_started(g.game.pk, 0)
    assert Notification.objects.get(kind="turn").status == "pending"
    assert not FollowUp.objects.exists()


def test_a_stuck_send_is_claimed_again_within_minutes_not_before_the_send_timeout(
        commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    [note_id] = plan.create(plan.after_move(g.game.pk, 0))
    with time_machine.travel(START, tick=False) as traveller:
        assert send.claim(note_id, timezone.now())  # a worker claimed it, then died
        # While a live send could still be waiting on the provider (EMAIL_TIMEOUT), the
        # claim is left alone: no double send.
        traveller.shift(30)
        assert requeue_unsent() == 0
        assert Notification.objects.get(pk=note_id).status == "sending"
        # 30 s timeout + 90 s margin: two minutes after the claim it goes out again.
        traveller.shift(91)
        with commit():
            assert requeue_unsent() == 1
    assert Notification.objects.get(pk=note_id).status == "sent"
    assert send.stuck_after().total_seconds() < 180


@pytest.mark.django_db(transaction=True)
def test_an_email_sent_while_the_database_blinks_is_recorded_sent_and_never_sent_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # PgBouncer restarted between the provider's 250 and the row's UPDATE (bench/chaos.py):
    # the row must not stay `sending`, or the stuck-send sweep sends the email again.
    g = make_game(players=3, seed=1, start=True)
    [note_id] = plan.create(plan.after_move(g.game.pk, 0))
    mail.outbox.clear()
    monkeypatch.setattr(send, "RECORD_PAUSES", (0.0, 0.0))
    finish, calls = send._finish, []

    def blinking(note: Notification, status: str, **fields: object) -> send.Outcome:
        calls.append(status)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return finish(note, status, **fields)

    monkeypatch.setattr(send, "_finish", blinking)
    with time_machine.travel(START, tick=False) as traveller:
        assert send.deliver(note_id).status == "sent"
        traveller.shift(3600)  # long past any stuck send's margin
        assert requeue_unsent() == 0
    assert calls == ["sent", "sent"] and len(mail.outbox) == 1
    assert Notification.objects.get(pk=note_id).status == "sent"


def test_the_database_going_away_while_a_letter_is_written_is_no_rendering_failure(
        commit: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # bench/chaos.py: PgBouncer restarted while the missed-deadline letter read the game.
    # Taken for a bug in the letter, the row would be failed for good and never sent.
    g = make_game(players=3, seed=1, start=True)
    [note_id] = plan.create(plan.after_move(g.game.pk, 0))
    mail.outbox.clear()
    with monkeypatch.context() as patched:
        patched.setattr(send, "letter_for", mock.Mock(
            side_effect=OperationalError("server closed the connection unexpectedly")))
        with time_machine.travel(START, tick=False), pytest.raises(OperationalError):
            send.deliver(note_id)
    note = Notification.objects.get(pk=note_id)
    assert note.status == "sending" and note.last_error == ""
    assert not Notification.objects.filter(kind=Notification.Kind.MODERATOR_ALERT).exists()
    with time_machine.travel(START, tick=False) as traveller:
        traveller.shift(3600)  # the claim is a dead send's now: the sweep sends it
        with commit():
            assert requeue_unsent() == 1
    assert Notification.objects.get(pk=note_id).status == "sent" and len(mail.outbox) == 1


def test_an_email_for_a_turn_already_played_is_skipped(commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    [note_id] = plan.create(plan.after_move(g.game.pk, 0))
    play_one(g, random.Random(1), commit)
    assert send.deliver(note_id).status == "skipped"
    assert Notification.objects.get(pk=note_id).last_error == "the turn is over"


def test_emails_are_written_in_the_seats_language(commit: Any) -> None:
    specs = [game_setup.PlayerSpec(name=f"P{i}", email=f"p{i}@example.com", language="it",
                                 time_zone="Europe/Rome") for i in range(3)]
    with commit():
        game_setup.create_game(name="Partita", players=specs, seed=1, start=True)
    message = [m for m in sent_to("p0@example.com") if "Partita" in m.subject][-1]
    assert '<html lang="it">' in message.alternatives[0][0]
    assert "(Europe/Rome)" in message.body


def test_unknown_kinds_are_skipped_and_every_kind_has_a_builder() -> None:
    g = make_game(players=3, seed=1, start=True)
    note = Notification.objects.create(key="x:1", kind="no_such_kind",
                                       to_email=g.seats[0].email, game=g.game, seat=g.seats[0])
    assert send.deliver(note.pk).status == "skipped"
    assert "no email is written" in Notification.objects.get(pk=note.pk).last_error
    assert set(letter_registry.registered_kinds()) == set(Notification.Kind.values)


# ---- a person reads a game's emails in the order they were planned ------------------------


def run_worker(capture: Any, *, last_first: bool) -> int:
    """The worker: every task waiting in the queue, in the order queued or the last queued
    first (several workers, a retry, the sweep: the send tasks of one commit may run in
    any order), each in its own transaction, until nothing is left. How many ran."""
    ran = 0
    while waiting := queued_tasks():
        for name, args, kwargs in (reversed(waiting) if last_first else waiting):
            with capture(execute=True):
                current_app.tasks[name].apply(args=tuple(args), kwargs=kwargs)
            ran += 1
    return ran


ORDERS = pytest.mark.parametrize("last_first", [False, True], ids=["as-queued", "last-first"])


def kinds_read_by(address: str) -> list[str]:
    return [("invited" if "invited" in m.subject else "turn" if "your turn" in m.subject
             else "round" if "round" in m.subject else m.subject) for m in sent_to(address)]


@ORDERS
@time_machine.travel(START, tick=False)
def test_the_invitation_comes_before_the_first_turn_email(
        commit: Any, django_capture_on_commit_callbacks: Any, last_first: bool) -> None:
    """A new player read "it is your turn" before "you are invited": the game's
    invitations and its first turn email went out in whatever order their send tasks ran.
    Here the beat plans the turn email before the worker has sent anything, and the worker
    runs the queued tasks in the order queued, or the last first."""
    with commit(worker=False):
        g = make_game(players=3, seed=1, start=True, invite=True)
    with django_capture_on_commit_callbacks(execute=True):
        follow_up_moves()  # the beat, quicker than the worker
    assert not mail.outbox
    run_worker(django_capture_on_commit_callbacks, last_first=last_first)
    first = f"p{g.refresh().actor}@example.com"
    assert kinds_read_by(first) == ["invited", "turn"]
    assert sorted(m.to[0] for m in mail.outbox if "invited" in m.subject) == [
        "p0@example.com", "p1@example.com", "p2@example.com"]
    assert Notification.objects.exclude(status="sent").count() == 0
    assert all(n.attempts == 1 for n in Notification.objects.all())  # each sent once


@ORDERS
def test_round_ones_end_comes_before_round_twos_turn_email(
        django_capture_on_commit_callbacks: Any, last_first: bool) -> None:
    """Round 2's first turn email arrived before round 1's end: the move that ends a round
    plans both (the turn email first), and their send tasks run in any order."""
    g = make_game(players=3, seed=5, start=True)
    rng = random.Random(5)
    while True:  # each move committed; its emails planned and sent but the last one's
        game = play_one(g, rng, lambda: django_capture_on_commit_callbacks(execute=True))
        if game.snapshot.get("round") != 1:
            break
        work_off(django_capture_on_commit_callbacks)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        follow_up_moves()
    run_worker(django_capture_on_commit_callbacks, last_first=last_first)
    actor = f"p{g.refresh().actor}@example.com"
    assert kinds_read_by(actor) == ["round", "turn"]
    for other in {f"p{n}@example.com" for n in range(3)} - {actor}:
        assert kinds_read_by(other) == ["round"]


@override_settings(EMAIL_BACKEND=FLAKY, EMAIL_MAX_ATTEMPTS=2, EMAIL_RETRY_SECONDS=0)
def test_an_email_given_up_or_skipped_lets_the_later_ones_of_its_game_go(commit: Any) -> None:
    """The order never holds an email back for good: an earlier email that failed for
    good or was skipped releases the next one, and a later email whose release was lost
    goes with the sweep."""
    g = make_game(players=3, seed=1, start=True, invite=True)  # invitations pending
    first = g.refresh().actor or 0
    [turn] = plan.create(plan.after_move(g.game.pk, 0))
    assert send.deliver(turn).status == "pending"  # it waits for the invitation
    assert Notification.objects.get(pk=turn).attempts == 0
    invitation = Notification.objects.get(kind="invitation", seat=g.seats[first])
    FlakyBackend.arm(failures=2)
    assert send.deliver(invitation.pk).status == "retrying"  # still to go: the turn waits
    assert send.deliver(turn).status == "pending" and not mail.outbox
    with commit():
        assert send.deliver(invitation.pk).status == "failed"  # given up: the turn goes
    assert Notification.objects.get(pk=turn).status == "sent"
    assert [m.to for m in mail.outbox] == [[f"p{first}@example.com"]]
    # Skipped: a seat whose player chose links only gets neither, and nothing waits.
    other = g.seats[(first + 1) % 3]
    Seat.objects.filter(pk=other.pk).update(email_mode=EmailMode.LINKS_ONLY)
    [later] = plan.create([plan.Spec(key="nudge:test", kind="nudge", to_email=other.email,
                                     game_id=g.game.pk, seat_id=other.pk)])
    assert send.deliver(later).status == "pending"
    skipped = Notification.objects.get(kind="invitation", seat=other)
    assert send.deliver(skipped.pk).status == "skipped"  # its release task is lost here
    with time_machine.travel(timezone.now() + timedelta(minutes=5), tick=False), commit():
        requeue_unsent()
    assert Notification.objects.get(pk=later).status == "skipped"
