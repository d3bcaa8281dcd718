"""A newcomer who takes a seat over starts from the defaults of every choice the former
player made for themselves (games.seats.core.seat.Seat._give_to_person): the former
player's quiet hours and open page hold none of the newcomer's emails, and the newcomer
may set quiet hours of their own at once. Taking the seat in its turn, they get a whole
turn from then, counted in their own time zone (games.clock.services.turn_clock)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.clock.services.quiet_hours import set_quiet_hours
from games.game.core.game import Game
from games.handover.services import opening, takeover
from games.moderation import services as moderation
from tests.handover.test_takeover import pass_move
from tests.handover_support import open_row
from tests.mail.test_one_turn_email import turn_emails_to
from tests.moderation_support import make_moderator
from tests.support import GameWithLinks, make_game

pytestmark = pytest.mark.django_db

VERA = "vera@example.org"


def vera_takes_seat_2_over(client: Client, commit: Any, g: GameWithLinks) -> None:
    """Seat 2's player leaves through their page (a bot holds it meanwhile: seat 1 is to
    act) and Vera, in UTC, takes it over."""
    with commit():
        assert client.post(g.page(1) + "leave").status_code == 302
    with commit():
        takeover.take_over(open_row(g.seats[1].pk).pk, takeover.Newcomer(
            name="Vera", email=VERA, language="en", time_zone="UTC"))


def test_the_former_players_quiet_hours_hold_none_of_the_newcomers_emails(
        client: Client, commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    # The clock stands at 09:00 UTC, within the quiet hours Player1 chose on their home.
    set_quiet_hours("p1@example.com", 8, 12)
    vera_takes_seat_2_over(client, commit, g)
    with commit():
        pass_move(client, g.page(0))  # seat 2's turn: Vera's
    assert len(turn_emails_to(VERA)) == 1  # at once
    # Her own quiet hours are hers to set now (a change a day: the first is hers).
    assert set_quiet_hours(VERA, 22, 7) == 1


def test_the_former_players_open_page_holds_none_of_the_newcomers_emails(
        client: Client, commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    client.get(g.page(1))  # Player1 looks at their page a moment before they leave
    vera_takes_seat_2_over(client, commit, g)
    with commit():
        pass_move(client, g.page(0))  # seat 2's turn: Vera's, whose page is not open
    assert len(turn_emails_to(VERA)) == 1  # at once


def test_a_newcomer_taking_the_seat_in_its_turn_gets_a_whole_turn_in_their_own_zone(
        commit: Any, clock: Any) -> None:
    """The game waits while seat 1's seat is open (nobody plays for it); 20 hours of its
    day's turn are gone when Nell, in Tokyo, takes it over: her deadline is a day from
    then, counted in her time zone, not the four hours left of Player0's."""
    g = make_game(players=3, seed=5, timeout_policy="auto_pass")
    g.game.while_seat_open = "wait"
    g.game.save(update_fields=["while_seat_open"])
    with commit():
        opening.open_seat(g.seats[0].pk)
    assert g.refresh().actor == 0
    clock.shift(20 * 3600)
    with commit():
        takeover.take_over(open_row(g.seats[0].pk).pk, takeover.Newcomer(
            name="Nell", email="nell@x.org", language="en", time_zone="Asia/Tokyo"))
    game = g.refresh()
    assert game.deadline_at == timezone.now() + timedelta(hours=24)
    assert game.turn_started_at == timezone.now()
    assert game.turn_clock["zone"] == "Asia/Tokyo"


def test_a_player_a_moderator_puts_in_the_seat_in_its_turn_gets_a_whole_turn(
        commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    clock.shift(23 * 3600)
    with commit():
        moderation.replace_player(g.seats[0].pk, name="Zoe", email="zoe@x.org",
                                  moderator=make_moderator(), reason="Player0 left",
                                  time_zone="America/Lima")
    game = g.refresh()
    assert game.deadline_at == timezone.now() + timedelta(hours=24)
    assert game.turn_clock["zone"] == "America/Lima"


def test_a_seat_changing_hands_out_of_its_turn_leaves_the_running_turn_alone(
        commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    deadline = g.refresh().deadline_at
    clock.shift(3600)
    with commit():
        moderation.replace_player(g.seats[1].pk, name="Zoe", email="zoe@x.org",
                                  moderator=make_moderator(), reason="Player1 left")
    assert g.refresh().deadline_at == deadline


def test_a_player_put_in_the_seat_of_a_paused_game_in_its_turn_gets_a_whole_turn_on_resume(
        commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    mod = make_moderator()
    clock.shift(20 * 3600)
    moderation.pause_game(g.game.pk, moderator=mod, reason="a holiday")
    assert g.refresh().paused_time_left == timedelta(hours=4)
    with commit():
        moderation.replace_player(g.seats[0].pk, name="Zoe", email="zoe@x.org",
                                  moderator=mod, reason="Player0 left",
                                  time_zone="America/Lima")
    clock.shift(3600)
    moderation.resume(g.game.pk, moderator=mod, reason="back")
    game = g.refresh()
    assert game.deadline_at == timezone.now() + timedelta(hours=24)
    assert game.turn_clock["zone"] == "America/Lima"


def test_a_newcomer_taking_a_seat_the_game_waited_for_is_not_held_by_the_old_quiet_hours(
        commit: Any, clock: Any) -> None:
    """The game waits for seat 1's open seat, whose turn began under Player0's quiet
    hours (10-14 UTC); Nell takes it over at 11:00 with none: her whole turn ends a day
    later at 11:00, not at 14:00 when Player0's quiet hours would have ended."""
    from games.clock.services import sweeps

    g = make_game(players=3, seed=5, timeout_policy="auto_pass")
    g.game.while_seat_open = "wait"
    g.game.save(update_fields=["while_seat_open"])
    Game.objects.filter(pk=g.game.pk).update(
        turn_clock={"seat": 0, "zone": "UTC", "quiet": [10, 14]})
    with commit():
        opening.open_seat(g.seats[0].pk)
    deadline = g.refresh().deadline_at
    assert deadline is not None
    clock.move_to(deadline)
    with commit():
        sweeps.handle_deadlines([[g.game.pk, 0, deadline.isoformat()]])
    assert g.refresh().deadline_at is None  # the game waits
    clock.move_to(timezone.now().replace(hour=11))
    with commit():
        takeover.take_over(open_row(g.seats[0].pk).pk, takeover.Newcomer(
            name="Nell", email="nell@x.org", language="en", time_zone="UTC"))
    game = g.refresh()
    assert game.deadline_at == timezone.now() + timedelta(hours=24)
    assert game.turn_clock["quiet"] is None
