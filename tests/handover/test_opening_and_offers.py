"""How seats open and who is asked: a moderator's opening and assignment, an absent
seat opened by the game's setting, the open-seats page (only games that allow it, nothing
secret), a player's invitation counted by the caps, offers in the volunteer's language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games import engine
from games.game.core.game import SeatKind
from games.game.core.talk_and_notices import GameNotice
from games.handover.core.handover_rows import OpenSeat, SeatOffer
from games.handover.services import offers, opening
from games.moderation.core.moderation_rows import ModeratorAction
from games.moves.services import seat_services as services
from games.people.core.mailboxes import mailbox_hash
from games.seats.core.invitations import Invitation
from games.seats.core.reliability import SeatTakeover
from games.seats.core.seat import Seat
from tests.handover_support import offer_link_to, open_row, sign_up
from tests.moderation_support import logged_in, make_moderator, page_url, post_action
from tests.support import START, make_game, own_link_emailed_to


@pytest.mark.django_db
def test_a_moderator_opens_a_seat_and_assigns_it_directly(client: Client, commit: Any) -> None:
    g = make_game(players=3, seed=5)
    moderator = logged_in(make_moderator())
    with commit():
        opened = post_action(moderator, g.game, "open_seat", seat=g.seats[2].pk,
                             public_note="Player2 moved house")
    assert opened.status_code == 302
    row = open_row(g.seats[2].pk)
    assert row.reason == OpenSeat.Reason.MODERATOR
    page = moderator.get(page_url(g.game)).content.decode()
    assert "Give an open seat to someone" in page and "3: Player2" in page
    old_link = g.page(2)
    with commit():
        given = post_action(moderator, g.game, "assign", open_seat=row.pk, name="Nora",
                            email="nora@x.org", language="it")
    assert given.status_code == 302
    seat = Seat.objects.get(pk=g.seats[2].pk)
    assert (seat.player_name, seat.email, seat.language, seat.kind) == (
        "Nora", "nora@x.org", "it", SeatKind.PERSON)
    assert client.get(old_link).status_code == 404
    assert client.get(own_link_emailed_to("nora@x.org")).status_code == 200
    assert ModeratorAction.objects.filter(kind="assign_seat").count() == 1
    assert SeatTakeover.objects.filter(seat=seat).count() == 1
    # The admin lists the open seats, offers and volunteers.
    for path in ("/admin/games/openseat/", "/admin/games/seatoffer/",
                 "/admin/games/volunteer/"):
        assert moderator.get(path).status_code == 200


@pytest.mark.django_db
def test_an_absent_seat_opens_only_where_the_game_allows_it(
        client: Client, commit: Any, clock: Any) -> None:
    allowed = make_game(players=3, seed=5, timeout_policy="auto_pass")
    allowed.game.open_absent_seats = True
    allowed.game.save(update_fields=["open_absent_seats"])
    other = make_game(players=3, seed=5, timeout_policy="auto_pass")
    sign_up(client, commit, "vera@example.org", "Vera")
    for g in (allowed, other):
        Seat.objects.filter(pk=g.seats[1].pk).update(missed_turns=3, absent_since=START)
    with commit():
        assert opening.sweep_open_seats()["opened"] == 1
    row = open_row(allowed.seats[1].pk)
    assert row.reason == OpenSeat.Reason.ABSENT
    assert not OpenSeat.objects.filter(seat_id=other.seats[1].pk).exists()
    notice = GameNotice.objects.get(game=allowed.game, kind="seat_open")
    assert notice.params["why"] == "absent"
    assert offer_link_to("vera@example.org")
    # Once per absence: a second sweep opens nothing more.
    with commit():
        assert opening.sweep_open_seats()["opened"] == 0


@pytest.mark.django_db
def test_the_open_seats_page_lists_only_games_that_allow_it_and_nothing_secret(
        client: Client, commit: Any) -> None:
    listed = make_game(players=3, seed=5)
    listed.game.list_open_seats = True
    listed.game.save(update_fields=["list_open_seats"])
    hidden = make_game(players=3, seed=7)
    with commit():
        opening.open_seat(listed.seats[1].pk)
        opening.open_seat(hidden.seats[1].pk)
    body = client.get("/seats/").content.decode()
    assert body.count('class="open-seat"') == 1
    assert "Seat 2 of a game of Saboteur" in body  # seats counted from 1
    state = listed.refresh().state()
    hand = set(state.hands[1])
    for secret in ("@example.com", "Player1", "Test game", state.roles[1], *hand,
                   listed.tokens[1]):
        assert secret not in body
    hidden_row = open_row(hidden.seats[1].pk)
    asked = client.post(f"/seats/{hidden_row.pk}/ask", {f"s{hidden_row.pk}-email": "x@y.org"})
    assert asked.status_code == 404
    listed_row = open_row(listed.seats[1].pk)
    with commit():
        asked = client.post(f"/seats/{listed_row.pk}/ask",
                            {f"s{listed_row.pk}-email": "x@y.org"})
    assert asked.status_code == 302
    assert offer_link_to("x@y.org")
    assert Invitation.objects.filter(recipient_hash=mailbox_hash("x@y.org")).count() == 1


@pytest.mark.django_db
@override_settings(SETUP_INVITATIONS_PER_RECIPIENT_PER_DAY=1)
def test_a_player_invites_someone_and_the_caps_count_it(client: Client, commit: Any) -> None:
    g = make_game(players=3, seed=5)
    with commit():
        opening.open_seat(g.seats[1].pk)
    row = open_row(g.seats[1].pk)
    with commit():
        sent = client.post(g.page(0) + "invite", {"open_seat": row.pk, "email": "f@x.org"})
    assert sent.status_code == 302
    [offer] = [m for m in mail.outbox if "f@x.org" in m.to]
    assert "A player of a Saboteur game" in offer.body and "p0@example.com" not in offer.body
    assert SeatOffer.objects.get(mailbox__isnull=False, to_email="f@x.org").source == "table"
    # Its recipient has had the day's one invitation: a second seat's offer is refused.
    other = make_game(players=3, seed=6)
    with commit():
        opening.open_seat(other.seats[2].pk)
    refused = client.post(other.page(0) + "invite", {
        "open_seat": open_row(other.seats[2].pk).pk, "email": "F+x@x.org"}, follow=True)
    assert "invited as often today as anyone may" in refused.content.decode()
    assert SeatOffer.objects.filter(to_email__iexact="F+x@x.org").count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [
    ("it", "Un posto in una partita"), ("de", "Ein Platz in einem"),
    ("es", "Un puesto libre"), ("nl", "Een plaats")])
def test_offers_come_in_the_volunteer_s_language(
        client: Client, commit: Any, language: str, words: str) -> None:
    g = make_game(players=3, seed=5)
    Seat.objects.filter(game=g.game).update(language=language)
    sign_up(client, commit, "vera@example.org", "Vera", languages=(language, "en"))
    mail.outbox.clear()
    with commit():
        opening.open_seat(g.seats[1].pk)
    [offer] = [m for m in mail.outbox if "vera@example.org" in m.to]
    assert words in offer.subject, offer.subject
    assert "Round 1 of" not in offer.body  # not English


@pytest.mark.django_db
def test_volunteers_are_offered_what_fits_a_few_at_a_time_within_their_daily_cap(
        client: Client, commit: Any) -> None:
    sign_up(client, commit, "once@v.org", "Once", offers_per_day=1)
    sign_up(client, commit, "it@v.org", "Ita", languages=("it",))
    sign_up(client, commit, "s2@v.org", "Esse", rulesets=("saboteur2",))
    sign_up(client, commit, "later@v.org", "Later", confirm=False)
    paused = sign_up(client, commit, "paused@v.org", "Paused")
    client.post(paused, {"action": "pause"})
    with commit():  # the games' own emails go out first
        games = [make_game(players=3, seed=s) for s in (5, 6)]
    mail.outbox.clear()
    with commit():
        for g in games:
            opening.open_seat(g.seats[1].pk)
    offered = sorted({m.to[0] for m in mail.outbox})
    assert offered == ["once@v.org"]  # one offer a day for them; nobody else fits
    assert engine.RULESETS  # both rulesets exist


@pytest.mark.django_db
def test_leaving_standby_or_stopping_offers_means_no_offer_ever_again(
        client: Client, commit: Any) -> None:
    link = sign_up(client, commit, "gone@v.org", "Gone")
    page = client.post(link, {"action": "leave"})
    assert "forgot your address" in page.content.decode()
    assert client.get(link).status_code == 404
    with commit():  # the game's own emails go out first
        g = make_game(players=3, seed=5)
    mail.outbox.clear()
    with commit():
        opening.open_seat(g.seats[1].pk)
    assert not mail.outbox
    # A player's invitation to that mailbox is refused too, however it is spelled.
    row = open_row(g.seats[1].pk)
    refused = client.post(g.page(0) + "invite", {"open_seat": row.pk, "email": "Gone@v.org"},
                          follow=True)
    assert "asked for no more of these emails" in refused.content.decode()
    # "Stop these emails" in an offer does the same for someone never on standby.
    with commit():
        client.post(g.page(0) + "invite", {"open_seat": row.pk, "email": "pal@x.org"})
    [offer] = [m for m in mail.outbox if "pal@x.org" in m.to]
    stop = re.search(r"/mail/unsubscribe/[^/\s]+/", offer.extra_headers["List-Unsubscribe"])
    assert stop is not None
    assert client.get(stop.group(0)).status_code == 200
    client.post(stop.group(0))
    assert SeatOffer.objects.get(to_email="pal@x.org").state == SeatOffer.State.VOID
    assert offers.refused(mailbox_hash("pal@x.org"))


@pytest.mark.django_db
def test_leaving_through_the_api_answers_json_and_a_second_time_409(commit: Any) -> None:
    g = make_game(players=3, seed=5)
    client = Client()
    with commit():
        answer = client.post(g.api(1) + "leave")
    assert answer.status_code == 200
    assert answer.json()["open"] is True and answer.json()["while_open"] == "bot"
    again = client.post(g.api(1) + "leave")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_open"
    assert client.get(g.api(1) + "leave").status_code == 405


@pytest.mark.django_db
def test_a_finished_or_cancelled_game_s_open_seats_close(commit: Any) -> None:
    g = make_game(players=3, seed=5)
    with commit():
        opening.open_seat(g.seats[1].pk)
    from games.game.core.game import Game
    Game.objects.filter(pk=g.game.pk).update(status=Game.Status.CANCELLED)
    assert opening.sweep_open_seats()["closed"] == 1
    assert OpenSeat.objects.get().outcome == OpenSeat.Outcome.CLOSED
    assert Seat.objects.get(pk=g.seats[1].pk).open_since is None
    assert services  # the services module is the one games.handover builds on


@pytest.mark.django_db
def test_asks_are_capped_per_inviting_player_per_open_seat_and_per_game(
        client: Client, commit: Any, settings: Any) -> None:
    """Issue 34, item 10: besides the client and the recipient, a day's asks are capped
    per asking player, per open seat asked for, and per game."""
    g = make_game(players=5, seed=5)
    g.game.list_open_seats = True
    g.game.save(update_fields=["list_open_seats"])
    with commit():
        opening.open_seat(g.seats[1].pk)
        opening.open_seat(g.seats[2].pk)
    first, second = open_row(g.seats[1].pk), open_row(g.seats[2].pk)

    def invite(number: int, row: OpenSeat, email: str) -> str:
        with commit():
            answer = client.post(g.page(number) + "invite",
                                 {"open_seat": row.pk, "email": email}, follow=True)
        return answer.content.decode()

    for n in range(3):
        invite(0, first if n < 2 else second, f"pal{n}@x.org")
    assert "as many people today to take a seat as one player may" in invite(
        0, second, "pal3@x.org")
    invite(3, first, "pal4@x.org")  # a third ask of the first seat, by another player
    assert "offered to as many people today as one seat may" in invite(
        4, first, "pal5@x.org")
    settings.OPEN_SEAT_ASKS_PER_GAME_PER_DAY = 5
    invite(3, second, "pal6@x.org")
    assert "as many people today to take a seat as one game may" in invite(
        4, second, "pal7@x.org")
    listed = Client(REMOTE_ADDR="10.8.0.1").post(
        f"/seats/{second.pk}/ask", {f"s{second.pk}-email": "stranger@x.org"}, follow=True)
    assert "as one game may" in listed.content.decode()
    assert sorted(SeatOffer.objects.values_list("to_email", flat=True)) == [
        "pal0@x.org", "pal1@x.org", "pal2@x.org", "pal4@x.org", "pal6@x.org"]


def bodies_html(letter: Any) -> str:
    return "".join(str(part[0]) for part in getattr(letter, "alternatives", []))


@pytest.mark.django_db
def test_an_offer_email_carries_nothing_a_host_or_player_wrote(client: Client,
                                                                commit: Any) -> None:
    g = make_game(players=3, seed=5)
    g.game.name = "Buy cheap pills at pills.example"
    g.game.list_open_seats = True
    g.game.save(update_fields=["name", "list_open_seats"])
    with commit():
        opening.open_seat(g.seats[1].pk)
    row = open_row(g.seats[1].pk)
    with commit():
        client.post(f"/seats/{row.pk}/ask", {f"s{row.pk}-email": "stranger@x.org"})
        client.post(g.page(0) + "invite", {"open_seat": row.pk, "email": "friend@x.org"})
    letters = [m for m in mail.outbox if m.to in (["stranger@x.org"], ["friend@x.org"])]
    assert len(letters) == 2
    for letter in letters:
        text = str(letter.subject) + str(letter.body) + bodies_html(letter)
        assert "pills" not in text and "Player0" not in text
        assert "Seat 2 of a game of Saboteur" in letter.body  # the facts only
    # The offer's own page, behind its private link, names the game.
    assert "pills.example" in client.get(offer_link_to("stranger@x.org")).content.decode()
