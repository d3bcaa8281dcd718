"""Email players see the table talk (issue 39, item 2): turn emails and the daily digest
carry what was said since the player's last email (who, when in their zone, what),
escaped, quoted as a reply client quotes; `say` in a reply reaches the page; a setting on
the home (and the seat page) turns it off."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any, cast

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client

from games.game.core.game import EmailMode
from games.handover.services import opening, takeover
from games.mail.services import reminder_sweeps
from games.seats.core.seat import Seat
from tests.handover.test_takeover import pass_move
from tests.handover_support import open_row
from tests.inbound_support import reply_address, send_reply
from tests.support import make_game, own_link_emailed_to

ANN = "Good luck, Bob & <friends>!\nplay 1 at 1,0"


def turn_emails_to(address: str) -> list[EmailMultiAlternatives]:
    return [cast(EmailMultiAlternatives, m) for m in mail.outbox
            if address in m.to and "your turn" in str(m.subject)]


def html_of(message: EmailMultiAlternatives) -> str:
    return str(message.alternatives[0][0])


def talk_on_page(client: Client, path: str) -> list[str]:
    body = client.get(path).content.decode()
    found = re.search(r'<ul class="messages" id="talk-messages">(.*?)</ul>', body, re.S)
    assert found is not None
    # A line's own text, without the report form under it.
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(
                r"<details.*?</details>", "", item, flags=re.S))).split())
            for item in re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)]


@pytest.mark.django_db
def test_page_talk_reaches_the_turn_email_and_a_say_reply_reaches_the_page(
        client: Client, commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    Seat.objects.filter(pk=g.seats[1].pk).update(time_zone="Asia/Tokyo")
    with commit():
        assert client.post(g.page(0) + "say", {"text": ANN}).status_code == 302
    clock.shift(timedelta(hours=2))
    with commit():
        pass_move(client, g.page(0))  # Bob's turn
    [turn] = turn_emails_to("p1@example.com")
    text = str(turn.body)
    assert "Table talk since your last email:" in text
    # Who and when (in Bob's zone), then what: every line quoted, as a reply quotes it.
    assert re.search(r"^> Player0, .*\(Asia/Tokyo\):$", text, re.M)
    assert "\n> Good luck, Bob & <friends>!\n> play 1 at 1,0\n" in text
    part = html_of(turn)
    block = re.search(r'<blockquote class="talk"[^>]*>(.*?)</blockquote>', part, re.S)
    assert block is not None
    assert "Good luck, Bob &amp; &lt;friends&gt;!" in block.group(1)
    assert "<friends>" not in part and "Asia/Tokyo" in block.group(1)
    # Bob answers by email: the quoted talk (with its "play 1 at 1,0") is not a command.
    quoted = "\n".join("> " + line for line in text.splitlines())
    answer = send_reply(commit, reply_address("p1@example.com"),
                        f"say Thanks Ann, see you\npass 1\n\nOn Monday, Saboteur wrote:\n{quoted}",
                        sender="p1@example.com")
    assert answer.outcome == "moved"
    assert g.refresh().version == 2
    talk = talk_on_page(client, g.page(0))
    assert talk[-1].startswith("Player1") and talk[-1].endswith("Thanks Ann, see you")
    # Cy talks and moves, Ann moves: Bob's next email carries only what is new.
    with commit():
        client.post(g.page(2) + "say", {"text": "Hello from Cy"})
        pass_move(client, g.page(2))
        pass_move(client, g.page(0))
    latest = str(turn_emails_to("p1@example.com")[-1].body)
    assert "> Hello from Cy" in latest and "Good luck, Bob" not in latest


@pytest.mark.django_db
def test_the_home_turns_the_talk_off_in_every_game(client: Client, commit: Any) -> None:
    from games.people.core.home_links import home_token

    g = make_game(players=3, seed=5)
    home = f"/me/{home_token('p1@example.com')}/"
    page = client.get(home).content.decode()
    assert 'name="talk_in_emails" value="1" checked' in page
    assert 'name="skip_seen_turns" value="1" checked' in page
    assert client.post(home + "emails", {"email_mode": "each_turn",
                                         "email_options": "1"}).status_code == 302
    assert not Seat.objects.get(pk=g.seats[1].pk).talk_in_emails
    with commit():
        client.post(g.page(0) + "say", {"text": "Anyone there?"})
        pass_move(client, g.page(0))
    [turn] = turn_emails_to("p1@example.com")
    assert "Anyone there?" not in str(turn.body) and "Anyone there?" not in html_of(turn)
    # The seat page's form turns it on again for that game.
    assert client.post(g.page(1) + "emails", {"email_mode": "each_turn", "email_options": "1",
                                              "talk_in_emails": "1"}).status_code == 302
    assert Seat.objects.get(pk=g.seats[1].pk).talk_in_emails


@pytest.mark.django_db
def test_the_daily_digest_carries_the_talk_of_each_game_since_the_last(
        client: Client, commit: Any, clock: Any) -> None:
    g = make_game(players=3, seed=5)
    Seat.objects.filter(pk=g.seats[1].pk).update(email_mode=EmailMode.DAILY_DIGEST)
    with commit():
        client.post(g.page(2) + "say", {"text": "Morning all"})
        pass_move(client, g.page(0))  # Bob's turn: his digest will list the game
    clock.shift(timedelta(days=1))
    with commit():
        reminder_sweeps.sweep_digests()
    [first] = [m for m in mail.outbox if "p1@example.com" in m.to and "waiting" in m.subject]
    assert "> Morning all" in str(first.body)
    assert "Morning all" in html_of(cast(EmailMultiAlternatives, first))
    with commit():
        client.post(g.page(2) + "say", {"text": "Still there, Bob?"})
    clock.shift(timedelta(days=1))
    mail.outbox.clear()
    with commit():
        reminder_sweeps.sweep_digests()
    [second] = [m for m in mail.outbox if "p1@example.com" in m.to]
    assert "> Still there, Bob?" in str(second.body) and "Morning all" not in str(second.body)


@pytest.mark.django_db
def test_the_turn_email_leaves_out_the_readers_own_lines(client: Client, commit: Any) -> None:
    """Ann's turn email quoted back what Ann herself had said. Her own lines stay out, the
    others' come; a newcomer in a handed-over seat reads what the seat's leaver said."""
    g = make_game(players=3, seed=5)
    Seat.objects.filter(game=g.game).update(skip_seen_turns=False)  # they talk on the page
    with commit():
        client.post(g.page(0) + "say", {"text": "Good luck, all"})
        pass_move(client, g.page(0))
        client.post(g.page(1) + "say", {"text": "Thanks, Ann"})
        pass_move(client, g.page(1))
        client.post(g.page(2) + "say", {"text": "Cy here"})
        pass_move(client, g.page(2))
    latest = turn_emails_to("p0@example.com")[-1]
    for part in (str(latest.body), html_of(latest)):
        assert "Thanks, Ann" in part and "Cy here" in part
        assert "Good luck, all" not in part
    # Cy leaves; Nell takes the seat over and reads Cy's line as someone else's.
    with commit():
        client.post(g.page(0) + "say", {"text": "Welcome, whoever comes"})
        pass_move(client, g.page(0))
        opening.open_seat(g.seats[2].pk)
    with commit():
        takeover.take_over(open_row(g.seats[2].pk).pk,
                           takeover.Newcomer(name="Nell", email="nell@x.org", language="en"))
    with commit():
        client.post(own_link_emailed_to("nell@x.org") + "say", {"text": "Nell is here"})
        pass_move(client, g.page(1))
    [nells] = turn_emails_to("nell@x.org")
    body = str(nells.body)
    assert "> Cy here" in body and "> Welcome, whoever comes" in body
    assert "Nell is here" not in body
