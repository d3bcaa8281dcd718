"""Forget me: active seats handed over first (a bot holds them) or the request waits for
the game to end; then the address is nowhere in the database, gets no email again, its
home link dies, and every game it played still replays and verifies."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import tasks
from games.engine import verify
from games.game.core.game import Game, SeatKind, WhileOpen
from games.handover.core.handover_rows import OpenSeat
from games.home.services.address import address_for_home_token
from games.home.services.forget import forget_player
from games.kit.service_errors import SetupError
from games.moves.services import seat_services as services
from games.people.core.home_links import home_token
from games.people.core.player_data import FORMER_PLAYER, PendingForget
from games.records.services.game_record import game_record
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from games.setup.services.web_setup import check_caps
from tests.inbound_support import reply_address, send_reply
from tests.players.play import play_moves
from tests.players.scan import tables_holding
from tests.support import assert_replay_matches, make_game, work_off

pytestmark = pytest.mark.django_db
GONE = "p0@example.com"


def sent_to(address: str) -> int:
    return sum(1 for message in mail.outbox if address in [a.lower() for a in message.to])


def test_after_forget_me_the_address_is_nowhere_and_gets_no_email(
        client: Client, commit: Any) -> None:
    with commit():
        over = make_game(players=3, seed=21)
        services.post_message(over.seats[0], f"Write to me at {GONE.upper()}, friends")
        services.post_message(over.seats[1], "Hello from seat 1")
        play_moves(over, 21)
        under_way = make_game(players=3, seed=7)
        Game.objects.filter(pk=under_way.game.pk).update(host_email=GONE)
    send_reply(commit, reply_address(GONE), "hello", sender=GONE)
    token = home_token(GONE)
    assert address_for_home_token(token) == GONE
    assert sent_to(GONE) and tables_holding(GONE)
    old_link = under_way.page(0)

    with commit():
        done = forget_player("P0@Example.com")

    assert (done.handed_over, done.waiting_for, done.done) == (1, 0, True)
    assert tables_holding(GONE) == []
    assert tables_holding("Player0") == []  # the name went with the address
    assert not PendingForget.objects.exists()
    # The seats keep a neutral name; the talk stays, without the address.
    assert set(Seat.objects.filter(number=0).values_list("player_name", flat=True)) == {
        FORMER_PLAYER}
    page = client.get(over.page(1)).content.decode()
    assert "a former player" in page and "Write to me at [" in page
    replay = client.get(over.page(1) + "replay/")
    assert replay.status_code == 200 and "a former player" in replay.content.decode()
    # The seat under way was handed over: a bot holds it, the old link opens nothing.
    seat = Seat.objects.get(pk=under_way.seats[0].pk)
    assert seat.kind == SeatKind.BOT and seat.open_since is not None
    assert OpenSeat.objects.filter(seat=seat, closed_at__isnull=True).exists()
    assert client.get(old_link).status_code == 404
    assert address_for_home_token(token) is None  # the home link died
    # The games stay whole: the replay plays, the record verifies.
    before = sent_to(GONE)
    with commit():
        play_moves(under_way, 7)
        work_off()
    for game in (over.refresh(), under_way.refresh()):
        assert game.status == Game.Status.FINISHED
        assert_replay_matches(game)
        assert not verify.check_record(game_record(game)).mismatch
    # No email again: a game's emails, nor an invitation to a new game.
    with commit():
        game_setup.create_game(name="Again", players=[
            game_setup.PlayerSpec(name="Back", email=GONE),
            game_setup.PlayerSpec(name="Other", email="other@example.com"),
            game_setup.PlayerSpec(name="Third", email="third@example.com")])
    assert sent_to(GONE) == before and sent_to("other@example.com") == 1
    assert not [f for f in tables_holding(GONE) if not f.startswith("games.Seat.")]
    with pytest.raises(SetupError):  # the setup page does not invite it
        check_caps("host@example.com", [GONE])


def test_a_seat_its_game_cannot_hand_over_waits_for_the_game_to_end(commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=21, while_seat_open=WhileOpen.WAIT)
    with commit():
        done = forget_player(GONE)
    assert (done.handed_over, done.waiting_for) == (0, 1)
    assert PendingForget.objects.count() == 1
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert seat.email == GONE and seat.kind == SeatKind.PERSON  # still playing it
    emails = sent_to(GONE)
    with commit():
        play_moves(g, 21)
    assert sent_to(GONE) == emails  # but no email meanwhile
    assert tasks.sweep_forgets() == 1
    assert tables_holding(GONE) == [] and not PendingForget.objects.exists()
    assert_replay_matches(g.refresh())
