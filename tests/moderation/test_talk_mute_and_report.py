"""Table talk: a player mutes another's talk for themselves (their page and what every
email's talk goes through: games.talk.core.mutes), and reports a line: a dispute carrying the
line and its context reaches the moderators in the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.game.core.talk_and_notices import Message
from games.moderation.core.moderation_rows import Dispute
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from games.talk.core.mutes import TalkMute, muted_seats
from tests.moderation_support import logged_in, make_moderator
from tests.support import GameWithLinks

pytestmark = pytest.mark.django_db


def say(g: GameWithLinks, number: int, text: str) -> Message:
    return services.post_message(Seat.objects.get(pk=g.seats[number].pk), text)


def talk_on_page(client: Client, g: GameWithLinks, number: int) -> str:
    return client.get(f"/play/{g.tokens[number]}/").content.decode()


def test_a_muted_players_talk_is_gone_from_the_muters_page_and_emails_only(
        client: Client, game: GameWithLinks) -> None:
    say(game, 1, "Hello from seat one")
    say(game, 2, "Seat two says hi")
    answer = client.post(f"/play/{game.tokens[0]}/mute", {"seat": 1, "action": "mute"})
    assert answer.status_code == 302
    mine = talk_on_page(client, game, 0)
    assert "Hello from seat one" not in mine and "Seat two says hi" in mine
    assert "Hello from seat one" in talk_on_page(client, game, 2)  # others still see it
    assert "Hello from seat one" in talk_on_page(client, game, 1)
    # What emails show of the talk goes through the same filter.
    reader = Seat.objects.get(pk=game.seats[0].pk)
    assert muted_seats(reader) == {1}
    other = Seat.objects.get(pk=game.seats[2].pk)
    assert muted_seats(other) == frozenset()
    client.post(f"/play/{game.tokens[0]}/mute", {"seat": 1, "action": "unmute"})
    assert "Hello from seat one" in talk_on_page(client, game, 0)


def test_a_mute_ends_when_either_seat_changes_hands(game: GameWithLinks) -> None:
    muter = Seat.objects.get(pk=game.seats[0].pk)
    from games.talk.services.muting import mute
    mute(muter, 1)
    assert muted_seats(muter) == {1}
    Seat.objects.filter(pk=game.seats[1].pk).update(email="newcomer@example.org")
    assert muted_seats(muter) == frozenset()


def test_muting_oneself_or_nobody_is_refused(client: Client, game: GameWithLinks) -> None:
    for seat in (0, 7, "x"):
        client.post(f"/play/{game.tokens[0]}/mute", {"seat": seat})
    assert not TalkMute.objects.exists()


def test_a_reported_line_reaches_the_admin_with_its_context(
        client: Client, game: GameWithLinks, commit: Any) -> None:
    make_moderator()
    lines = [say(game, n % 3, f"line {n}") for n in range(8)]
    mail.outbox.clear()
    with commit():
        answer = client.post(f"/play/{game.tokens[0]}/report",
                             {"message": lines[4].pk, "reason": "rude"})
    assert answer.status_code == 302
    dispute = Dispute.objects.get()
    assert dispute.talk_id == lines[4].pk and "line 4" in dispute.text and "rude" in dispute.text
    assert [line["text"] for line in dispute.talk_context] == [f"line {n}" for n in range(1, 8)]
    assert [line["reported"] for line in dispute.talk_context].count(True) == 1
    assert ["mod@example.com"] in [m.to for m in mail.outbox]  # the moderators are told
    moderator = logged_in(make_moderator("mod2", "mod2@example.com"))
    page = moderator.get(f"/admin/games/dispute/{dispute.pk}/change/").content.decode()
    assert "<strong>" in page and "line 4" in page and "line 1" in page
    # The table is not told who reported; the reporter sees their own report.
    assert "Player0 filed a dispute" not in talk_on_page(client, game, 1)
    assert "Player0 filed a dispute" in talk_on_page(client, game, 0)


def test_reporting_ones_own_line_or_another_games_line_is_refused(
        client: Client, game_factory: Any) -> None:
    g = game_factory(players=3, seed=4, start=True)
    other = game_factory(players=3, seed=5, start=True)
    own = say(g, 0, "my own line")
    elsewhere = say(other, 1, "another game")
    for message in (own.pk, elsewhere.pk, 99999, "x"):
        client.post(f"/play/{g.tokens[0]}/report", {"message": message})
    assert not Dispute.objects.exists()
