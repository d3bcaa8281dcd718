"""A player leaves, a bot holds the seat, a volunteer takes it over and plays on: the
newcomer's link and email replies work, the leaver's are dead, the record keeps who did
what (docs/playing.md "When a player leaves")."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.game.core.game import Move, SeatKind
from games.game.core.talk_and_notices import GameNotice
from games.handover.core.handover_rows import OpenSeat, SeatOffer
from games.handover.services import opening, takeover
from games.mail.core.notifications import Notification
from games.people.core.mailboxes import mailbox_hash
from games.records.services.game_record import game_record
from games.records.services.replay_steps import tell
from games.seats.core.links import link_for
from games.seats.core.reliability import SeatTakeover
from games.seats.core.seat import Seat
from tests.handover_support import offer_link_to, open_row, sign_up
from tests.inbound_support import reply_address, send_reply
from tests.support import make_game, own_link_emailed_to, page_moves, token_of, work_off


def pass_move(client: Client, path: str) -> None:
    """The seat's player passes with a card through their page, as a person would."""
    body = client.get(path).content.decode()
    move = next(m for m in page_moves(body) if m["type"] == "pass")
    version = int(body.split('name="version" value="')[1].split('"')[0])
    answer = client.post(path + "move", {"version": version, "move": json.dumps(move)})
    assert answer.status_code == 302, answer.content.decode()[:3000]


@pytest.mark.django_db
def test_a_leaver_s_seat_is_played_by_a_bot_until_a_volunteer_takes_it_over(
        client: Client, commit: Any) -> None:
    g = make_game(players=3, seed=5)
    vol = sign_up(client, commit, "vera@example.org", "Vera")
    assert vol
    with commit():
        pass_move(client, g.page(0))  # seat 1's turn: its player gets the turn email
    leaver_reply = reply_address("p1@example.com")
    leaver_link = g.page(1)
    mail.outbox.clear()
    with commit():
        answer = client.post(leaver_link + "leave")
    assert answer.status_code == 302
    # A bot holds the seat and moved its turn; the leaver is asked nothing more.
    seat = Seat.objects.get(pk=g.seats[1].pk)
    assert seat.kind == SeatKind.BOT and seat.open_since is not None
    assert Move.objects.get(game=g.game, number=2).actor_kind == Move.Actor.BOT
    assert g.refresh().actor == 2
    assert not [m for m in mail.outbox if "p1@example.com" in m.to]
    # The volunteer is offered it, in their language, with no player's address.
    [offer] = [m for m in mail.outbox if "vera@example.org" in m.to]
    assert "Round 1 of 3" in offer.body and "@example.com" not in offer.body
    assert "Meanwhile a bot plays the seat" in offer.body
    # The leaver's page says the seat looks for someone; the leaver may still look.
    assert "This seat is looking for a new player" in client.get(leaver_link).content.decode()
    with commit():
        pass_move(client, g.page(2))
        pass_move(client, g.page(0))  # seat 1 again: the bot plays it again
    assert g.refresh().actor == 2 and g.game.version == 5
    offer_path = offer_link_to("vera@example.org")
    page = client.get(offer_path).content.decode()
    assert "Take over this seat" in page and 'value="Vera"' in page
    mail.outbox.clear()
    with commit():
        taken = client.post(offer_path, {"name": "Vera", "language": "en"})
    assert taken.status_code == 200
    text = taken.content.decode()
    assert "Seat 2 is yours" in text and "/play/" not in text  # the link goes by email only
    own = own_link_emailed_to("vera@example.org")
    assert own == "/play/" + token_of(link_for(Seat.objects.get(pk=seat.pk))) + "/"
    # The old link and the old reply addresses are dead.
    assert client.get(leaver_link).status_code == 404
    dead = send_reply(commit, leaver_reply, "pass 1", sender="p1@example.com")
    assert dead.outcome != "moved" and g.refresh().version == 5
    # The newcomer sees the seat's hand and role from now on.
    mine = client.get(own).content.decode()
    assert "Your hand" in mine and "Your secret role this round" in mine
    assert "Vera took over seat 2 from Player1" in mine
    # Their next turn: by the reply address of their own turn email (she plays by email:
    # her turn emails come even while her page was open a moment ago)...
    assert client.post(own + "emails", {"email_mode": "each_turn",
                                        "email_options": "1"}).status_code == 302
    with commit():
        pass_move(client, g.page(2))
        pass_move(client, g.page(0))
    assert g.refresh().actor == 1
    moved = send_reply(commit, reply_address("vera@example.org"), "pass 1",
                       sender="vera@example.org")
    assert moved.outcome == "moved" and g.refresh().version == 8
    assert Move.objects.get(game=g.game, number=8).actor_kind == Move.Actor.SEAT
    # ... and the turn after through their own link.
    with commit():
        pass_move(client, g.page(2))
        pass_move(client, g.page(0))
        pass_move(client, own)
    assert g.refresh().version == 11
    # Reliability: the takeover is the newcomer's, nothing of the leaver's moved over.
    [row] = SeatTakeover.objects.filter(seat_id=seat.pk)
    assert row.left_mailbox == mailbox_hash("p1@example.com")
    assert row.taken_by_mailbox == mailbox_hash("vera@example.org") and row.version == 5
    assert SeatOffer.objects.get(to_email="vera@example.org").state == SeatOffer.State.TAKEN


@pytest.mark.django_db
def test_the_record_and_the_replay_show_the_takeover_where_it_happened(
        client: Client, commit: Any) -> None:
    g = make_game(players=3, seed=6)
    with commit():
        pass_move(client, g.page(0))
        opening.open_seat(g.seats[2].pk)
    row = open_row(g.seats[2].pk)
    with commit():
        takeover.take_over(row.pk, takeover.Newcomer(name="Nell", email="nell@x.org",
                                                     language="en"))
    record = game_record(g.refresh())
    kinds = [(c["kind"], c["at_version"], c["seat"]) for c in record["seat_changes"]]
    assert kinds == [("seat_open", 1, 2), ("takeover", 1, 2)]
    # The record's seat is 2, counted from 0; its words count from 1.
    assert record["seat_changes"][1]["what"] == "Nell took over seat 3 from Player2."
    story = tell(g.refresh())
    assert "Nell took over seat 3 from Player2." in story.notices[1]
    assert GameNotice.objects.filter(game=g.game, kind="takeover").count() == 1


@pytest.mark.django_db
def test_the_leaver_may_stay_until_someone_takes_the_seat(client: Client, commit: Any) -> None:
    g = make_game(players=3, seed=5)
    sign_up(client, commit, "vera@example.org", "Vera")
    with commit():
        client.post(g.page(1) + "leave")
    offer_path = offer_link_to("vera@example.org")
    with commit():
        assert client.post(g.page(1) + "stay").status_code == 302
    seat = Seat.objects.get(pk=g.seats[1].pk)
    assert seat.kind == SeatKind.PERSON and seat.open_since is None
    page = client.post(offer_path, {"name": "Vera", "language": "en"})
    assert "no longer needs a player" in client.get(offer_path).content.decode()
    # The accept did not happen (409, as when another volunteer was first); looking is 200.
    assert page.status_code == 409 and Seat.objects.get(pk=seat.pk).email == "p1@example.com"
    assert "Player1 stays in seat 2 after all" in client.get(g.page(0)).content.decode()


@pytest.mark.django_db
def test_a_game_that_waits_stops_the_seat_s_clock_and_records_no_missed_deadline(
        client: Client, commit: Any, clock: Any) -> None:
    from games.clock.services import sweeps
    from games.seats.core.reliability import MissedDeadline

    g = make_game(players=3, seed=5, timeout_policy="auto_pass")
    g.game.while_seat_open = "wait"
    g.game.save(update_fields=["while_seat_open"])
    with commit():
        opening.open_seat(g.seats[0].pk)
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert seat.kind == SeatKind.PERSON and g.refresh().actor == 0
    clock.shift(25 * 3600)
    deadline = g.refresh().deadline_at
    assert deadline is not None
    with commit():
        sweeps.handle_deadlines([[g.game.pk, 0, deadline.isoformat()]])
    game = g.refresh()
    assert game.version == 0 and game.deadline_at is None  # the game waits
    assert not MissedDeadline.objects.exists()
    with commit():
        takeover.take_over(open_row(seat.pk).pk, takeover.Newcomer(
            name="Nell", email="nell@x.org", language="en"))
    game = g.refresh()
    # A whole turn for the newcomer, from the moment they took the seat.
    assert game.deadline_at == timezone.now() + timedelta(hours=24)
    assert Notification.objects.filter(kind="turn", to_email="nell@x.org").exists()


@pytest.mark.django_db
def test_an_accept_that_comes_after_another_is_refused_409_and_a_look_is_not(
        client: Client, commit: Any) -> None:
    """However the two accepts interleave, the later one did not happen: 409, kindly said.
    Looking at the offer afterwards is not an accept (200), nor is the winner's second
    press of the button."""
    g = make_game(players=3, seed=5)
    for email, name in (("ann@v.org", "Ann"), ("bob@v.org", "Bob")):
        sign_up(client, commit, email, name)
    with commit():
        opening.open_seat(g.seats[1].pk)
    ann, bob = (offer_link_to(email) for email in ("ann@v.org", "bob@v.org"))
    with commit():
        assert client.post(ann, {"name": "Ann", "language": "en"}).status_code == 200
        late = client.post(bob, {"name": "Bob", "language": "en"})
    assert late.status_code == 409
    assert "Someone else took this seat a moment before you" in late.content.decode()
    assert client.get(bob).status_code == 200
    assert client.post(ann, {"name": "Ann", "language": "en"}).status_code == 200
    assert Seat.objects.get(pk=g.seats[1].pk).email == "ann@v.org"
    assert dict(SeatOffer.objects.values_list("to_email", "state")) == {
        "ann@v.org": "taken", "bob@v.org": "lost"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_of_two_volunteers_accepting_at_once_one_takes_the_seat(client: Client) -> None:
    """Real threads, real row locks: only meaningful on PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite has no row locks")
    g = make_game(players=3, seed=5)
    for email, name in (("ann@v.org", "Ann"), ("bob@v.org", "Bob")):
        sign_up(client, _eager, email, name)
    with _eager():
        opening.open_seat(g.seats[1].pk)
    paths = {email: offer_link_to(email) for email in ("ann@v.org", "bob@v.org")}
    barrier = threading.Barrier(2)
    answers: dict[str, tuple[int, str]] = {}

    def accept(email: str) -> None:
        try:
            barrier.wait()
            answer = Client().post(paths[email], {"name": email[:3], "language": "en"})
            answers[email] = (answer.status_code, answer.content.decode())
        finally:
            connection.close()

    mail.outbox.clear()
    threads = [threading.Thread(target=accept, args=(email,)) for email in paths]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(status for status, _text in answers.values()) == [200, 409]
    [(loser, (_status, text))] = [(e, a) for e, a in answers.items() if a[0] == 409]
    assert "Someone else took this seat a moment before you" in text
    assert "Thank you for offering to help" in text
    winner = next(e for e in answers if e != loser)
    seat = Seat.objects.get(pk=g.seats[1].pk)
    assert seat.email == winner and SeatTakeover.objects.filter(seat=seat).count() == 1
    links = Notification.objects.filter(kind=Notification.Kind.LINKS, to_email=winner)
    assert links.count() == 1
    assert not Notification.objects.filter(kind=Notification.Kind.LINKS, to_email=loser)
    assert OpenSeat.objects.get(seat=seat).outcome == OpenSeat.Outcome.TAKEN
    states = dict(SeatOffer.objects.values_list("to_email", "state"))
    assert states == {winner: "taken", loser: "lost"}


class _Eager:
    """A stand-in for the `commit` fixture in a transactional test: on-commit callbacks
    run as soon as each transaction commits there; after the block the queued tasks run,
    as the worker would run them."""

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        yield
        work_off()


_eager = _Eager()
