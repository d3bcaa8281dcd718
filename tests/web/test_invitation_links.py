"""Who holds a working link: the host's invitation links die once the player accepts,
rotation never hands out a dead link, and link keys live apart from SECRET_KEY."""

from __future__ import annotations

import io
import threading
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings

from games.mail.core.notifications import Notification
from games.seats.core.links import find_seat, link_for
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.support import token_of


def created(*, start: bool = False) -> game_setup.CreatedGame:
    players = [game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("ann", "bo", "cy")]
    return game_setup.create_game(name="Links", players=players, seed=4, start=start)


def path_of(link: str) -> str:
    return "/play/" + token_of(link) + "/"


@pytest.mark.django_db
def test_the_host_sees_invitation_links_that_show_no_hand_and_die_on_accepting(
        client: Client, commit: Any) -> None:
    with commit():
        game = created()
    seat, invitation = game.seats[1]
    own = link_for(seat)
    assert token_of(invitation) != token_of(own)
    page = client.get(path_of(invitation))
    assert page.status_code == 200 and page["Cache-Control"].startswith("no-store")
    text = page.content.decode()
    assert "This is the invitation for bo, seat 2." in text
    assert "Your hand" not in text and "secret role" not in text
    mail.outbox.clear()
    with commit():
        accepted = client.post(path_of(invitation) + "accept")
    assert accepted.status_code == 200
    text = accepted.content.decode()
    # Whoever held the invitation link (the host) is not shown the player's link.
    assert token_of(own) not in text and "/play/" not in text
    assert "sent to the seat's email address" in text
    assert client.get(path_of(invitation)).status_code == 404  # the invitation is used up
    assert client.get(path_of(own)).status_code == 200
    [letter] = mail.outbox
    assert letter.to == ["bo@x.org"] and own in letter.body
    assert token_of(invitation) not in letter.body


@pytest.mark.django_db
def test_accepting_through_the_emailed_own_link_also_kills_the_invitation(
        client: Client, commit: Any) -> None:
    with commit():
        game = created()
    seat, invitation = game.seats[0]
    [letter] = [m for m in mail.outbox if m.to == ["ann@x.org"]]
    own = link_for(seat)
    assert own in letter.body and invitation not in letter.body  # the player's own link
    client.post(path_of(own) + "accept")
    assert find_seat(token_of(invitation)) is None
    assert find_seat(token_of(own)) is not None


@pytest.mark.django_db
def test_an_invitation_cannot_rotate_the_players_link(client: Client) -> None:
    game = created()
    seat, invitation = game.seats[2]
    answer = client.post(path_of(invitation) + "rotate")
    assert answer.status_code == 302
    assert find_seat(token_of(link_for(Seat.objects.get(pk=seat.pk)))) is not None
    assert Seat.objects.get(pk=seat.pk).link_rotated_at is None


@pytest.mark.django_db
def test_a_double_click_on_new_link_hands_out_one_working_link(client: Client) -> None:
    game = created(start=True)
    seat = game.seats[0][0]
    old = path_of(link_for(seat))
    first = client.post(old + "rotate")
    second = client.post(old + "rotate")
    assert first.status_code == 302 and "no-store" in first["Cache-Control"]
    assert second.status_code == 404
    assert client.get(first["Location"]).status_code == 200
    assert client.get(old).status_code == 404


@pytest.mark.django_db
def test_rotating_secret_key_keeps_links_and_old_link_keys_still_rebuild_them(
        client: Client) -> None:
    with override_settings(LINK_KEY="first-link-key", LINK_KEY_FALLBACKS=[]):
        game = created(start=True)
        seat = Seat.objects.get(pk=game.seats[0][0].pk)
        link = link_for(seat)
    with override_settings(SECRET_KEY="a-brand-new-secret-key", LINK_KEY="first-link-key"):
        assert link_for(seat) == link
        assert client.get(path_of(link)).status_code == 200
    with override_settings(LINK_KEY="second-link-key", LINK_KEY_FALLBACKS=["first-link-key"]):
        assert link_for(seat) == link  # the emails keep carrying the link that works
        new_game = created(start=True)
        assert Seat.objects.get(pk=new_game.seats[0][0].pk).link_key_id != seat.link_key_id


@pytest.mark.django_db
def test_rotatelinks_gives_every_open_seat_a_new_link_and_emails_it(
        client: Client, commit: Any) -> None:
    with override_settings(LINK_KEY="old-key"):
        with commit():
            game = created(start=True)
        old_links = [link_for(s) for s, _ in game.seats]
    mail.outbox.clear()
    out = io.StringIO()
    with override_settings(LINK_KEY="new-key", LINK_KEY_FALLBACKS=["old-key"]), commit():
        call_command("rotatelinks", "--old-keys-only", stdout=out)
    assert "3 seats got a new link" in out.getvalue()
    with override_settings(LINK_KEY="new-key", LINK_KEY_FALLBACKS=[]):
        for (seat, _), old in zip(game.seats, old_links, strict=True):
            new = link_for(Seat.objects.get(pk=seat.pk))
            assert new != old
            assert client.get(path_of(old)).status_code == 404
            assert client.get(path_of(new)).status_code == 200
            [letter] = [m for m in mail.outbox if m.to == [seat.email]]
            assert new in letter.body and old not in letter.body


@pytest.mark.django_db
def test_playing_through_the_own_link_takes_the_seat_and_kills_the_invitation(
        client: Client, commit: Any) -> None:
    with commit():
        game = created(start=True)  # started at once: nobody has accepted
    seat, invitation = game.seats[0]
    api = "/api/play/" + token_of(link_for(seat)) + "/"
    state = client.get(api).json()
    assert find_seat(token_of(invitation)) is not None  # a GET changes nothing
    made = client.post(api + "moves", {"version": state["version"],
                                       "move": state["legal_moves"][0]},
                       content_type="application/json")
    assert made.status_code == 200
    assert find_seat(token_of(invitation)) is None
    assert client.get(path_of(invitation)).status_code == 404
    assert Seat.objects.get(pk=seat.pk).accepted_at is not None


@pytest.mark.django_db
def test_any_form_sent_through_the_own_link_takes_the_seat(client: Client) -> None:
    game = created(start=True)
    seat, invitation = game.seats[1]
    client.post(path_of(link_for(seat)) + "say", {"text": "hello"})
    assert find_seat(token_of(invitation)) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_of_many_accepts_at_once_one_takes_the_seat_and_one_email_goes() -> None:
    """Real threads, real row locks: only meaningful on PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite has no row locks")
    game = created()
    seat, invitation = game.seats[1]
    path = path_of(invitation) + "accept"
    barrier = threading.Barrier(6)
    statuses: list[int] = []

    def accept() -> None:
        try:
            barrier.wait()
            statuses.append(Client().post(path).status_code)
        finally:
            connection.close()

    mail.outbox.clear()
    threads = [threading.Thread(target=accept) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 404, 404, 404, 404, 404]
    links = Notification.objects.filter(kind=Notification.Kind.LINKS, seat=seat)
    assert links.count() == 1
