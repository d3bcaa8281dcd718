"""The host's page (games.setup.services.host_view), reached from the confirmation: who has
accepted, an invitation sent again (counted by the caps), the game cancelled before it
starts; never a hand, a role or anyone's own link."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.game.core.game import Game
from games.seats.core.invitations import Invitation
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.seatview.core.words import role_name
from tests.setup_support import HOST, set_up
from tests.support import assert_no_card_ids, own_link_emailed_to, token_of

pytestmark = pytest.mark.django_db

HOST_PAGE = re.compile(r"(/new/host/[A-Za-z0-9_-]{43}/)")
EMAILS = ["ann@example.org", "bo@example.org", "cy@example.org"]


def form(**extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "Hosted", "ruleset": "base", "hours_per_move": 24,
                            "seating": "order", "start": "accepted", "time_zone": "UTC",
                            "language": "en", "bots": 1}
    for i, email in enumerate(EMAILS):
        data[f"player_{i}_name"] = email.split("@")[0].title()
        data[f"player_{i}_email"] = email
    return {**data, **extra}


def hosted(client: Client, commit: Any) -> tuple[Game, str]:
    """A game set up on the web page; the host's page path, from the confirmation page."""
    created = set_up(client, form(), commit).content.decode()
    found = HOST_PAGE.search(created)
    assert found, created
    # The confirmation email links to it too, and the confirmation page after confirming.
    [letter] = [m for m in mail.outbox if m.to == [HOST]]
    assert found.group(1) in str(letter.body)
    return Game.objects.get(), found.group(1)


def assert_shows_nothing_secret(body: str, game: Game) -> None:
    state = game.state()
    for seat in Seat.objects.filter(game=game):
        assert token_of(link_for(seat)) not in body, "a seat's own link"
        assert_no_card_ids(body, set(state.hands[seat.number]), "the host's page")
    for role in set(state.roles):
        assert role_name(role) not in body, role
    assert "/play/" not in body


def invitations_to(address: str) -> int:
    return sum(1 for m in mail.outbox if m.to == [address] and "invited" in m.subject)


def test_the_host_sees_who_accepted_and_never_a_hand(client: Client, commit: Any) -> None:
    game, page = hosted(client, commit)
    body = client.get(page).content.decode()
    assert body.count("not yet") == 3 and "Bert (bot)" in body
    assert_shows_nothing_secret(body, game)
    with commit():
        client.post(own_link_emailed_to(EMAILS[1]) + "accept")
    answer = client.get(page)
    body = answer.content.decode()
    assert body.count("not yet") == 2
    assert answer["Cache-Control"] == "no-store, private"
    assert_shows_nothing_secret(body, game)
    # Only the seats still waiting can be invited again.
    assert body.count('name="seat"') == 2 and 'name="seat" value="1"' not in body


def test_an_invitation_sent_again_is_counted_by_the_caps(client: Client, commit: Any,
                                                         settings: Any) -> None:
    game, page = hosted(client, commit)
    before, counted = invitations_to(EMAILS[0]), Invitation.objects.count()
    with commit():
        answer = client.post(page + "resend", {"seat": 0})
    assert answer.status_code == 302
    assert invitations_to(EMAILS[0]) == before + 1
    assert Invitation.objects.count() == counted + 1
    assert own_link_emailed_to(EMAILS[0])  # the email carries the player's own link
    assert_shows_nothing_secret(client.get(page).content.decode(), game)
    # Past the recipient's daily cap: refused, nothing sent.
    settings.SETUP_INVITATIONS_PER_RECIPIENT_PER_DAY = 2
    with commit():
        refused = client.post(page + "resend", {"seat": 0})
    assert refused.status_code == 400
    assert "has been invited as often today" in refused.content.decode()
    assert_shows_nothing_secret(refused.content.decode(), game)
    assert invitations_to(EMAILS[0]) == before + 1
    # A seat already taken, a bot's, or no seat at all: a clear error.
    with commit():
        client.post(own_link_emailed_to(EMAILS[2]) + "accept")
    for seat in ("2", "3", "x", "99"):
        with commit():
            wrong = client.post(page + "resend", {"seat": seat})
        assert wrong.status_code == 400, seat
        assert_shows_nothing_secret(wrong.content.decode(), game)
    assert invitations_to(EMAILS[2]) == 1


def test_the_host_cancels_a_game_that_has_not_started(client: Client, commit: Any) -> None:
    game, page = hosted(client, commit)
    unsure = client.post(page + "cancel")
    assert unsure.status_code == 400 and "Tick the box" in unsure.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.SETUP
    with commit():
        assert client.post(page + "cancel", {"sure": "on"}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert "The game was cancelled." in client.get(page).content.decode()
    with commit():
        assert client.post(page + "resend", {"seat": 0}).status_code == 400


def test_no_cancel_once_started_and_no_page_without_the_link(client: Client,
                                                             commit: Any) -> None:
    game, page = hosted(client, commit)
    for email in EMAILS:
        with commit():
            client.post(own_link_emailed_to(email) + "accept")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    body = client.get(page).content.decode()
    assert "Cancel the game" not in body and "not yet" not in body
    assert_shows_nothing_secret(body, game)
    assert client.post(page + "cancel", {"sure": "on"}).status_code == 400
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert client.get("/new/host/" + "A" * 43 + "/").status_code == 404
    assert client.get(page.replace("/new/host/", "/new/host/x")).status_code == 404
    assert client.get(page + "resend").status_code == 405


def test_the_host_page_forms_need_csrf(client: Client, commit: Any) -> None:
    game, page = hosted(client, commit)
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(page + "cancel", {"sure": "on"}).status_code == 403
    assert strict.post(page + "resend", {"seat": 0}).status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.SETUP


def test_the_host_link_never_reaches_a_log_line() -> None:
    from saboteur_site.log_redaction import redact

    token = "Ab1_-" * 8 + "xyz"
    for line in (f"GET /new/host/{token}/ 200", f"POST /new/host/{token}/resend 302",
                 f"Not Found: /new/host/{token[:20]}/"):
        assert token[:20] not in redact(line), line


@pytest.mark.parametrize("language", ["it", "nl", "es", "de"])
def test_the_host_page_speaks_each_language(client: Client, commit: Any,
                                            language: str) -> None:
    _game, page = hosted(client, commit)
    body = client.get(page, headers={"Accept-Language": language}).content.decode()
    assert f'lang="{language}"' in body and "not yet" not in body


def test_the_host_page_shows_no_address_even_after_a_takeover(client: Client,
                                                              commit: Any) -> None:
    """Issue 34, item 7: names and accepted or not; never an address, least of all that
    of a volunteer who took a seat over (the host never typed it)."""
    from games.handover.core.handover_rows import OpenSeat
    from games.handover.services import opening, takeover

    game, page = hosted(client, commit)
    for email in EMAILS:
        with commit():
            client.post(own_link_emailed_to(email) + "accept")
    assert Game.objects.get().status == Game.Status.ACTIVE
    seat = Seat.objects.get(game=game, email=EMAILS[1])
    with commit():
        opening.open_seat(seat.pk)
        takeover.take_over(OpenSeat.objects.get(seat=seat).pk, takeover.Newcomer(
            name="Vera", email="vera@volunteers.example", language="en"))
    body = client.get(page).content.decode()
    assert "Vera" in body and "vera@volunteers.example" not in body
    assert not re.findall(r"[\w.+-]+@[\w-]+\.[\w.]+", body), "an address on the host's page"
