"""Download my data: every game, seat, table-talk line and email record of one address,
and nothing of another player (no other address, name, hand or role)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from games.handover.services import opening, takeover
from games.home.services.export import export_player_data
from games.mail.core.notifications import Notification
from games.moderation.services.dispute_acts import file_dispute
from games.moderation.services.talk_reports import report_talk
from games.moves.services import seat_services as services
from tests.handover_support import open_row
from tests.inbound_support import reply_address, send_reply
from tests.players.play import play_moves
from tests.support import make_game

pytestmark = pytest.mark.django_db
ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def test_the_export_holds_exactly_that_addresss_data(commit: Any) -> None:
    with commit():
        over = make_game(players=4, seed=21)
        services.post_message(over.seats[0], "Mine: good luck all")
        services.post_message(over.seats[1], "Not mine: Player1 speaking")
        file_dispute(over.seats[0].pk, text="My dispute")
        file_dispute(over.seats[1].pk, text="Not mine either")
        play_moves(over, 21)
        under_way = make_game(players=3, seed=7)
        services.post_message(under_way.seats[0], "Mine too")
        rude = services.post_message(under_way.seats[1], "Not mine: a rude line")
        report_talk(under_way.seats[2].pk, rude.pk, "Not mine: reported first")
        report_talk(under_way.seats[0].pk, rude.pk, "too rude")
        make_game(players=3, seed=8).game.seats.filter(number=0).update(
            email="someone@else.org")  # a game p0 is not in
    send_reply(commit, reply_address("p0@example.com"), "hello", sender="p0@example.com")

    data = export_player_data("P0@example.com")
    text = json.dumps(data)
    assert {found.lower() for found in ADDRESS.findall(text)} == {"p0@example.com"}
    assert {g["game"] for g in data["games"]} == {over.game.public_id,
                                                  under_way.game.public_id}
    assert {g["seat"]["name"] for g in data["games"]} == {"Player0"}
    assert [d["text"] for d in data["disputes_filed"]] == ["My dispute"]
    assert [(r["game"], r["reason"]) for r in data["talk_lines_reported"]] == [
        (under_way.game.public_id, "too rude")]
    for other in ("Player1", "Player2", "Player3", "Not mine"):
        assert other not in text
    assert [line["text"] for line in data["table_talk"]] == ["Mine: good luck all",
                                                            "Mine too"]
    assert len(data["emails_sent_to_you"]) == Notification.objects.filter(
        to_email="p0@example.com").count() > 0
    assert len(data["emails_received_from_you"]) == 1
    over_entry = next(g for g in data["games"] if g["game"] == over.game.public_id)
    assert over_entry["final_gold"] == over.refresh().state().scores[0]
    assert data["record"]["games_played"] == 2
    # Nothing secret of anyone: no hand, no role, no seed of a game under way.
    assert not re.search(r'"(hand|hands|role|roles|seed|salt)"', text)


def test_a_forged_from_puts_nothing_into_someone_elses_export(client: Any,
                                                               commit: Any) -> None:
    """Issue 34, item 11: the From of an email proves nothing; an email is "received from
    you" only when it came to a reply address of your own seat."""
    from games.people.core.home_links import home_token
    from games.seats.core.seat import Seat

    with commit():
        bobs = make_game(players=3, seed=3)
        Seat.objects.filter(pk=bobs.seats[0].pk).update(email="bob@example.net")
        eves = make_game(players=3, seed=4)  # Bob is not in it
    eve = eves.seats[0].email
    send_reply(commit, reply_address(eve), "say hello from Bob, honest",
               sender="Bob@Example.NET")
    bob = json.loads(client.get(f"/me/{home_token('bob@example.net')}/data.json").content)
    assert eves.game.public_id not in json.dumps(bob)
    assert bob["emails_received_from_you"] == []
    mine = export_player_data(eve)["emails_received_from_you"]
    assert [row["game"] for row in mine] == [eves.game.public_id]  # Eve's seat's, hers


def test_the_export_lists_the_games_the_address_left(commit: Any) -> None:
    """A seat handed over left the leaver's export as it left the home: it is listed as a
    game left (the name played under, when), with nothing of the newcomer."""
    g = make_game(players=3, seed=5)
    with commit():
        opening.open_seat(g.seats[1].pk)
    assert export_player_data("p1@example.com")["games_left"] == []  # still Bob's seat
    with commit():
        takeover.take_over(open_row(g.seats[1].pk).pk,
                           takeover.Newcomer(name="Nell", email="nell@x.org", language="en"))
    data = export_player_data("p1@example.com")
    assert data["games"] == []
    [left] = data["games_left"]
    assert (left["game"], left["name"], left["status"], left["seat"], left["played_as"]) == (
        g.game.public_id, "Test game", "active", 1, "Player1")
    assert left["left_at"] and "Nell" not in json.dumps(data)
    assert export_player_data("nell@x.org")["games_left"] == []
