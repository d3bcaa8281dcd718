"""A pause proposal reaches every other player by the channel they chose: an email of its
own (digest players too; "no email" gets none), once per seat and proposal, in their
language and time zone, that says how many agreed of how many needed and when it lapses,
and that can be answered with `pause agree`. The seat page and the API say the same."""

from __future__ import annotations

import html
import json
from datetime import timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client
from django.utils import translation

from games.game.core.game import EmailMode, Game
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.seats.core.seat import Seat
from games.seatview.core.dates import local_time
from tests.inbound_support import REPLY_TO, send_reply
from tests.support import START, make_game

pytestmark = pytest.mark.django_db


def shown(language: str, zone: str) -> str:
    """When a proposal made at START lapses, as a reader sees it (two days later)."""
    with translation.override(language):
        return local_time(START + timedelta(days=2), ZoneInfo(zone))


def propose(client: Client, g: Any, seat: int, commit: Any) -> Any:
    with commit():
        return client.post(g.api(seat) + "pause", json.dumps(
            {"action": "propose", "days": 3, "reason": "Easter trip"}),
            content_type="application/json")


def proposals_to(address: str) -> list[EmailMultiAlternatives]:
    return [cast(EmailMultiAlternatives, m) for m in mail.outbox
            if m.to == [address] and "proposes a pause" in m.subject + str(m.body)
            and not m.subject.startswith("Re:")]


def read(letter: EmailMultiAlternatives) -> tuple[str, str]:
    page = html.unescape(str(letter.alternatives[0][0]))
    return " ".join(str(letter.body).split()), " ".join(page.split())


def test_every_other_player_gets_the_proposal_by_their_channel(client: Client, clock: Any,
                                                               commit: Any) -> None:
    with commit():
        g = make_game(players=5, seed=1, start=True)
    Seat.objects.filter(pk=g.seats[1].pk).update(time_zone="Europe/Rome")
    Seat.objects.filter(pk=g.seats[2].pk).update(email_mode=EmailMode.DAILY_DIGEST)
    Seat.objects.filter(pk=g.seats[3].pk).update(email_mode=EmailMode.LINKS_ONLY)
    mail.outbox.clear()
    assert propose(client, g, 0, commit).status_code == 200
    assert [len(proposals_to(f"p{n}@example.com")) for n in range(5)] == [0, 1, 1, 0, 1]
    [letter] = proposals_to("p1@example.com")
    assert letter.subject == "Test game: Player0 proposes a pause"
    assert REPLY_TO.fullmatch(letter.reply_to[0])
    for body in read(letter):
        assert "Player0 proposes a pause of 3 days: Easter trip" in body
        assert ("1 of the 3 players needed have agreed so far (the proposer counts). Without "
                f"the others the proposal lapses on {shown('en', 'Europe/Rome')}.") in body
        assert "To agree, reply to this email with: pause agree" in body
    # Exactly once: planning the proposal again sends nothing more.
    game = Game.objects.get(pk=g.game.pk)
    with commit():
        assert plan.queue(plan.pause_proposal(game, Seat.objects.get(pk=g.seats[1].pk))) == []
    assert Notification.objects.filter(kind="pause").count() == 3
    # Replying `pause agree` agrees; the page and the API count it.
    answer = send_reply(commit, letter.reply_to[0], "pause agree", sender="p1@example.com")
    assert answer.outcome == "talk" and Game.objects.get(pk=g.game.pk).pause["agreed"] == [0, 1]
    page = " ".join(client.get(g.page(4)).content.decode().split())
    assert ("2 of the 3 players needed have agreed so far (the proposer counts). Without the "
            f"others the proposal lapses on {shown('en', 'UTC')}.") in page
    with commit():
        agreed = client.post(g.api(4) + "pause", json.dumps({"action": "agree"}),
                             content_type="application/json").json()["pause"]
    assert agreed["state"] == "running"  # 3 of 5


def test_the_api_counts_a_proposal(client: Client, clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=4, seed=1, start=True)
    proposed = propose(client, g, 1, commit).json()["pause"]
    assert (proposed["agreed"], proposed["needed"]) == ([1], 3)
    assert proposed["lapses_at"] == (START + timedelta(days=2)).isoformat()


def test_the_proposal_is_written_in_each_readers_language(client: Client, clock: Any,
                                                          commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    Seat.objects.filter(pk=g.seats[2].pk).update(language="it")
    mail.outbox.clear()
    propose(client, g, 0, commit)
    [letter] = [cast(EmailMultiAlternatives, m) for m in mail.outbox
                if m.to == ["p2@example.com"]]
    assert letter.subject == "Test game: Player0 propone una pausa"
    for body in read(letter):
        assert "Player0 propone una pausa di 3 giorni: Easter trip" in body
        assert ("Finora hanno accettato 1 dei 2 giocatori necessari (chi propone conta). "
                f"Senza gli altri la proposta decade il {shown('it', 'UTC')}.") in body
        assert "Per accettare, rispondi a questa email con: pausa accetto" in body
