"""Quiet hours set on the home: emails inside them wait for their end; a fixed-pace
turn begun inside them counts from their end; a bank is not charged for them; a change
counts for the clock from the seat's next turn (never the running one) and comes at most
once a day; bad hours are refused and change nothing; the home says what they do with
a fixed time per move and with a time bank."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import engine, tasks
from games.clock.core.clock_setup import clock_settings
from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.mail.services import send
from games.people.core.home_links import home_link
from games.seats.core.reliability import MissedDeadline
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.support import START, GameWithLinks, make_game, seat_move

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def home_of(address: str) -> str:
    return home_link(address).split("127.0.0.1:8000", 1)[1]


def pass_turn(g: GameWithLinks) -> None:
    game = g.refresh()
    state = game.state()
    move = next(m for m in engine.legal_moves(state) if m["type"] == "pass")
    assert state.actor is not None
    seat = Seat.objects.get(game=game, number=state.actor)
    seat_move(seat, game.version, {k: v for k, v in move.items() if k != "seat"})


def test_quiet_hours_hold_the_turn_email_and_start_the_clock_at_their_end(
        client: Client, clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    home = home_of("p1@example.com")
    assert 'name="quiet_from"' in client.get(home).content.decode()
    assert client.post(home + "quiet", {"quiet_from": "22", "quiet_to": "8"}).status_code == 302
    assert Seat.objects.get(pk=g.seats[1].pk).quiet_from == 22
    clock.move_to(START.replace(hour=23))  # Monday 23:00 UTC: p1's quiet hours
    mail.outbox.clear()
    with commit():
        pass_turn(g)
    game = g.refresh()
    assert game.actor == 1
    tuesday_8 = START.replace(hour=8) + timedelta(days=1)
    assert game.deadline_at == tuesday_8 + 24 * HOUR  # from the end of the quiet hours
    assert not [m for m in mail.outbox if m.to == ["p1@example.com"]]
    held = Notification.objects.get(kind="turn", seat=g.seats[1])
    assert held.not_before == tuesday_8
    clock.move_to(tuesday_8 + timedelta(hours=1))
    # The beat sends what waited once its time has come (games.mail.services.send.unsent).
    with commit():
        for pk in send.unsent(tuesday_8 + timedelta(hours=1)):
            send.deliver(pk)
    assert [m for m in mail.outbox if m.to == ["p1@example.com"] and "turn" in m.subject]


def test_a_bank_is_not_charged_for_quiet_hours(client: Client, clock: Any,
                                                commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=False, clock=clock_settings(bank_hours=24))
    client.post(home_of("p0@example.com") + "quiet", {"quiet_from": "22", "quiet_to": "8"})
    with commit():
        game_setup.start_game(g.game.pk)
    # Monday 09:00 UTC: 13 running hours to 22:00, then 11 more from Tuesday 08:00.
    assert g.refresh().deadline_at == START + timedelta(days=1, hours=10)


@pytest.mark.parametrize("bad", [{"quiet_from": "22"}, {"quiet_from": "5", "quiet_to": "5"},
                                 {"quiet_from": "8", "quiet_to": "23"},
                                 {"quiet_from": "x", "quiet_to": "3"}])
def test_bad_quiet_hours_are_refused_and_change_nothing(client: Client, commit: Any,
                                                        bad: dict[str, str]) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    before = g.refresh().deadline_at
    answer = client.post(home_of("p0@example.com") + "quiet", bad)
    assert answer.status_code == 400  # the home again, with the reason
    text = answer.content.decode()
    assert "quiet hours" in text.lower() and "Saved for your" not in text
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert (seat.quiet_from, seat.quiet_to) == (None, None)
    assert g.refresh().deadline_at == before


def test_quiet_hours_changed_during_ones_turn_count_from_the_next_turn(
        client: Client, clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True, clock=clock_settings(bank_hours=24))
    assert g.refresh().actor == 0
    deadline = g.refresh().deadline_at
    assert deadline == START + 24 * HOUR
    home = home_of("p0@example.com")
    # Monday 09:00 UTC, p0's own turn: quiet hours over the present hour and the next 11.
    answer = client.post(home + "quiet", {"quiet_from": "9", "quiet_to": "21"}, follow=True)
    assert answer.status_code == 200
    assert "applies from your next turn" in answer.content.decode()
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert (seat.quiet_from, seat.quiet_to) == (9, 21)
    assert g.refresh().deadline_at == deadline  # the running turn keeps its clock
    clock.move_to(START + HOUR)  # 10:00: p0 passes, then the others
    with commit():
        for _ in range(3):
            pass_turn(g)
    game = g.refresh()
    assert game.actor == 0
    # p0's next turn begins inside the new quiet hours: its bank (24 h less the hour
    # taken) runs 12 hours from 21:00 to Tuesday 09:00, and 11 more from Tuesday 21:00.
    assert game.deadline_at == START.replace(hour=8) + timedelta(days=2)


def test_a_second_change_within_a_day_is_refused_and_changes_nothing(
        client: Client, clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    home = home_of("p1@example.com")
    assert client.post(home + "quiet", {"quiet_from": "22", "quiet_to": "8"}).status_code == 302
    clock.move_to(START + 23 * HOUR)
    answer = client.post(home + "quiet", {"quiet_from": "1", "quiet_to": "9"})
    assert answer.status_code == 409
    text = answer.content.decode()
    assert "at most once a day" in text and "try again in 1" in text
    seat = Seat.objects.get(pk=g.seats[1].pk)
    assert (seat.quiet_from, seat.quiet_to) == (22, 8)
    # The same hours again are no change, and a day after the change a new one is taken.
    assert client.post(home + "quiet", {"quiet_from": "22", "quiet_to": "8"}).status_code == 302
    clock.move_to(START + 24 * HOUR)
    assert client.post(home + "quiet", {"quiet_from": "1", "quiet_to": "9"}).status_code == 302
    seat.refresh_from_db()
    assert (seat.quiet_from, seat.quiet_to) == (1, 9)


def test_moving_a_quiet_window_over_the_present_hour_never_stops_the_clock(
        client: Client, clock: Any, commit: Any) -> None:
    """The report: a 12-hour window moved over the present hour on one's own turn, 20
    times in a row, and the deadline never came."""
    with commit():
        g = make_game(players=3, seed=1, start=True, clock=clock_settings(bank_hours=72))
    deadline = g.refresh().deadline_at
    assert deadline == START + 72 * HOUR
    home = home_of("p0@example.com")
    taken = 0
    for step in range(20):
        now = START + step * 11 * HOUR
        if now >= deadline:
            break
        clock.move_to(now)
        hour = now.hour
        answer = client.post(home + "quiet", {"quiet_from": str(hour),
                                              "quiet_to": str((hour + 12) % 24)})
        taken += answer.status_code == 302
        assert answer.status_code in (302, 409)
        assert g.refresh().deadline_at == deadline
    assert taken == 3  # at 0, 33 and 66 hours: once a day
    clock.move_to(deadline)
    with commit():
        assert tasks.sweep_deadlines() == 1
    game = g.refresh()
    assert game.actor == 1 and game.version == 1
    assert MissedDeadline.objects.filter(game=game).count() == 1


def test_a_turn_running_before_the_upgrade_keeps_its_seats_settings(commit: Any) -> None:
    """The migration's data step: a running turn with nothing kept yet keeps its seat's
    settings of now."""
    import importlib

    from django.apps import apps

    step = importlib.import_module("games.migrations.0041_turn_keeps_its_clock")
    with commit():
        g = make_game(players=3, seed=1, start=True)
    Seat.objects.filter(pk=g.seats[0].pk).update(time_zone="Europe/Rome", quiet_from=23,
                                                 quiet_to=7)
    Game.objects.filter(pk=g.game.pk).update(turn_clock={})
    step._keep_running_turns(apps, None)
    assert g.refresh().turn_clock == {"seat": 0, "zone": "Europe/Rome", "quiet": [23, 7]}


FIXED_WORDS = ("With a fixed time per move your clock runs on in them, but a turn that "
               "begins in them counts from their end, and no deadline falls in them: it "
               "moves to their end.")
BANK_WORDS = ("With a time bank your clock stops in them: your bank is never charged for "
              "them, so it never runs out in them.")
EMAIL_WORDS = ("In each game's time zone: no turn email, reminder or nudge reaches you then; "
               "they wait for the end, but a reminder that would then come at or after your "
               "deadline comes at their start instead.")


@pytest.mark.parametrize("language", ["en", "it", "nl", "es", "de"])
def test_the_home_says_what_quiet_hours_do_with_each_kind_of_clock(
        client: Client, language: str) -> None:
    """The home used to say the clock does not run in quiet hours: true of a time bank
    only. It says what they do with a fixed time per move and with a bank, and what
    they do to reminders, in the player's language."""
    from django.utils import translation

    from games.home.services import everywhere

    make_game(players=3, seed=1, start=True)
    everywhere.set_language_and_zone("p0@example.com", language=language,
                                     time_zone="Europe/Rome")
    page = client.get(home_of("p0@example.com")).content.decode()
    with translation.override(language):
        words = [translation.gettext(text) for text in (EMAIL_WORDS, FIXED_WORDS, BANK_WORDS)]
        old = translation.gettext("In each game's time zone: no turn email, reminder or nudge "
                                  "reaches you then (they wait for the end), and your clock "
                                  "does not run.")
    if language != "en":
        assert not set(words) & {EMAIL_WORDS, FIXED_WORDS, BANK_WORDS}  # translated
    for text in words:
        assert text in page
    assert old not in page
