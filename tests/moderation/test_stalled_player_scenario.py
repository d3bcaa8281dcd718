"""Tried as a moderator would: a game with a stalled player, from the admin list to a
replaced player who receives the invitation and plays; and the lists stay fast."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import engine
from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.mail.services import follow_ups
from games.moderation.core.moderation_rows import ModeratorAction
from games.seats.core.links import find_seat, link_for
from games.seats.core.seat import Seat
from tests.moderation_support import logged_in, make_moderator, page_url, play, post_action
from tests.support import GameWithLinks, make_game, page_moves, page_version

pytestmark = pytest.mark.django_db


def stall(g: GameWithLinks, days: int = 4) -> Seat:
    """The seat to act has not played for `days` days and missed three deadlines."""
    game = g.refresh()
    assert game.actor is not None
    past = timezone.now() - timedelta(days=days)
    Game.objects.filter(pk=game.pk).update(turn_started_at=past,
                                           deadline_at=past + timedelta(hours=24))
    Seat.objects.filter(game=game, number=game.actor).update(
        missed_turns=3, absent_since=past, player_name="Slowpoke", email="slow@example.com")
    return Seat.objects.get(game=game, number=game.actor)


def listed(body: str, game: Game) -> bool:
    return f"/admin/games/game/{game.pk}/change/" in body


def test_a_stalled_player_is_found_and_replaced(commit: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    calm = make_game(players=3, seed=4)
    stalled = make_game(players=4, seed=8)
    play(stalled, random.Random(8), moves=5)
    with commit():
        pass  # the beat plans the moves' emails (the old player got their turn email)
    absent = stall(stalled)
    client = logged_in(make_moderator())

    # 1. the list, filtered: only the stalled game, with who it waits on and since when
    body = client.get("/admin/games/game/?overdue=yes&absent=yes").content.decode()
    assert listed(body, stalled.game) and not listed(body, calm.game)
    assert f"{absent.number}: {absent.player_name}" in body
    body = client.get("/admin/games/game/?waiting=3").content.decode()
    assert listed(body, stalled.game) and not listed(body, calm.game)
    body = client.get("/admin/games/game/?q=" + absent.email).content.decode()
    assert listed(body, stalled.game) and not listed(body, calm.game)

    # 2. the moderation page shows the seat as absent
    page = client.get(page_url(stalled.game)).content.decode()
    assert "absent since" in page and "3 missed turns in a row" in page

    # 3. replace the player: the new player gets the invitation with a working link
    mail.outbox.clear()
    sent: list[int] = []
    real = follow_ups.send_invitation

    def invite(seat_id: int) -> None:
        sent.append(seat_id)
        real(seat_id)

    monkeypatch.setattr(follow_ups, "send_invitation", invite)
    with commit():
        response = post_action(client, stalled.game, "replace", seat=absent.pk,
                               name="Rita", email="rita@example.com",
                               reason="Player stalled for four days; Rita takes over",
                               public_note="Rita joins the table")
    assert response.status_code == 302
    [seat_id] = sent
    assert seat_id == absent.pk
    link = link_for(Seat.objects.get(pk=seat_id))
    invitation = Notification.objects.get(to_email="rita@example.com",
                                          kind=Notification.Kind.INVITATION)
    assert invitation.status == Notification.Status.SENT
    [message] = [m for m in mail.outbox if m.to == ["rita@example.com"]]
    assert link in message.body and absent.email not in message.to
    token = link.rstrip("/").rsplit("/", 1)[-1]
    seat = find_seat(token)
    assert seat is not None and seat.pk == absent.pk and seat.absent_since is None
    assert find_seat(stalled.tokens[absent.number]) is None  # the old link is dead

    # 4. the new player opens the link, sees the seat's hand, and plays
    guest = Client()
    their_page = guest.get(f"/play/{token}/").content.decode()
    assert "Rita" in their_page and "Rita joins the table" in their_page
    moves = page_moves(their_page)
    assert moves and all(m in engine.legal_moves(stalled.refresh().state()) for m in moves)
    played = guest.post(f"/play/{token}/move", {"version": page_version(their_page),
                                                "move": _json(moves[0])})
    assert played.status_code == 302 and stalled.refresh().version == 6

    # 5. all of it is on the record
    action = ModeratorAction.objects.get(kind="replace_player")
    assert action.details["old"]["absent_since"] is not None
    assert action.reason.startswith("Player stalled")
    assert "Player stalled" not in their_page


def _json(move: dict[str, Any]) -> str:
    from games.seatview.core.move_forms import move_value

    return move_value(move)


def test_the_lists_make_the_same_queries_for_3_or_30_games(
        django_assert_max_num_queries: Any) -> None:
    client = logged_in(make_moderator())
    urls = ["/admin/games/game/", "/admin/games/game/?overdue=no&absent=no&disputed=no",
            "/admin/games/seat/", "/admin/games/move/", "/admin/games/dispute/",
            "/admin/games/moderatoraction/", "/admin/games/notification/",
            "/admin/games/gamenotice/", "/admin/games/message/"]

    def counts() -> dict[str, int]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        found = {}
        for url in urls:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            found[url] = len(queries)
        return found

    _fill(3)
    few = counts()
    _fill(27)
    many = counts()
    assert few == many
    assert max(many.values()) <= 15
    body = client.get("/admin/games/game/").content.decode()
    assert len(re.findall(r"/admin/games/game/\d+/change/", body)) == 30


def _fill(count: int) -> None:
    from games.moderation import services as moderation

    mod = make_moderator(f"filler{Game.objects.count()}", "")
    for n in range(count):
        g = make_game(players=3, seed=100 + n)
        play(g, random.Random(n), moves=2)
        moderation.file_dispute(g.seats[1].pk, text="x")
        moderation.extend_deadline(g.game.pk, 1, moderator=mod, reason="x")
        Seat.objects.filter(pk=g.seats[0].pk).update(absent_since=timezone.now())
