"""Moves by email reply: the turn email's Reply-To, the pipeline, its refusals and limits."""

from __future__ import annotations

import base64
import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings

from games import engine
from games.game.core.game import Game, Move
from games.game.core.talk_and_notices import Message
from games.inbound.core.inbound_mail import InboundMail
from games.seats.core import reply_tokens as tokens
from games.seats.core.reply_tokens import ReplyToken
from games.seats.core.seat import Seat
from games.seatview.core import describe
from tests.inbound_support import REPLY_TO, inbound, reply_address, send_reply
from tests.support import make_game

pytestmark = pytest.mark.django_db


def started(commit: Any, ruleset: str = "base", players: int = 3, seed: int = 1,
            language: str = "en") -> Any:
    with commit():
        g = make_game(players=players, seed=seed, start=True, ruleset=ruleset)
    if language != "en":
        Seat.objects.filter(game=g.game).update(language=language)
    return g


def test_the_turn_email_carries_a_reply_token_the_numbered_hand_and_examples(
        commit: Any) -> None:
    g = started(commit)
    [turn] = [m for m in mail.outbox if m.to == ["p0@example.com"] and m.reply_to]
    address = turn.reply_to[0]
    body = str(turn.body)
    assert REPLY_TO.fullmatch(address) and address.endswith("@127.0.0.1")
    token = address.split("+", 1)[1].split("@")[0]
    assert len(token) * 5 >= 128
    stored = ReplyToken.objects.get()
    assert stored.token_hash == tokens.token_hash(token) and token not in stored.token_hash
    assert (stored.seat_id, stored.version) == (g.seats[0].pk, 0)
    view = engine.view(g.refresh().state(), 0)
    names = [describe.card_name(card) for card in view["hand"]]
    assert f"1. {names[0]}" in body and f"{len(names)}. {names[-1]}" in body
    # Examples built from this hand's legal moves: a path card of the hand, a discard.
    assert re.search(r"\n  play [1-6] at -?\d+,-?\d+\n", body) and "\n  pass 1\n" in body
    assert body.count(f"1. {names[0]}") == 1
    html = str(turn.alternatives[0][0])  # type: ignore[attr-defined]
    assert "Reply by email" in html and f"1. {names[0]}" in html


@override_settings(INBOUND_DOMAIN="in.example.org")
def test_pass_by_reply_makes_the_move_and_answers(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    assert address.endswith("@in.example.org")
    mail.outbox.clear()
    card = engine.view(g.refresh().state(), 0)["hand"][0]["id"]
    result = send_reply(commit, address, "pass 1")
    assert result.outcome == "moved"
    move = Move.objects.get(game=g.game, number=1)
    assert move.move == {"type": "pass", "card": card, "seat": 0} and move.actor_kind == "seat"
    answer = next(m for m in mail.outbox if m.subject.startswith("Re:"))
    assert answer.to == ["p0@example.com"] and answer.extra_headers["Auto-Submitted"]
    assert "Your move was made" in answer.body and "passed" in answer.body.lower()
    # The next player got their turn email, with their own token.
    assert REPLY_TO.search(reply_address("p1@example.com"))


@pytest.mark.parametrize(("language", "command"), [("it", "passa 1"), ("nl", "pas 1"),
                                              ("es", "pasa 1"), ("de", "passe 1")])
def test_each_language_s_words_make_the_move(commit: Any, language: str, command: str) -> None:
    g = started(commit, language=language)
    result = send_reply(commit, reply_address("p0@example.com"), command)
    assert result.outcome == "moved" and g.refresh().version == 1


def test_an_illegal_move_is_refused_in_the_seat_s_language_with_the_options(
        commit: Any) -> None:
    g = started(commit, language="it")
    mail.outbox.clear()
    result = send_reply(commit, reply_address("p0@example.com") if mail.outbox else
                        tokens.issue(g.seats[0], 0), "gioca 1 a 7,7")
    assert result.outcome == "refused" and g.refresh().version == 0
    assert "carta" in result.detail.lower()  # the engine's message, in Italian
    [answer] = mail.outbox
    assert "passa 1" in answer.body  # the legal options, as commands in Italian words
    assert REPLY_TO.search(answer.reply_to[0])  # still their turn: a new token to answer


def test_malformed_commands_change_nothing_and_say_why(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    for text, why in [("play banana", "Say which card"), ("play 9 at 1,0", "no card 9"),
                      ("hello there", "No command"), ("play 1 on Nobody", "no player")]:
        mail.outbox.clear()
        result = send_reply(commit, address, text)
        assert result.outcome == "refused" and why in result.detail
        assert "Your options" in mail.outbox[0].body
    assert g.refresh().version == 0


def test_a_reply_to_an_older_turn_email_changes_nothing(commit: Any) -> None:
    g = started(commit)
    old = reply_address("p0@example.com")
    assert send_reply(commit, old, "pass 1").outcome == "moved"
    mail.outbox.clear()
    result = send_reply(commit, old, "pass 2")
    assert result.outcome == "stale" and g.refresh().version == 1
    assert "moved on" in mail.outbox[0].body and Move.objects.filter(game=g.game).count() == 1


def test_the_same_message_delivered_twice_is_handled_once(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    first = send_reply(commit, address, "say hi", message_id="<same@x>")
    again = send_reply(commit, address, "say hi", message_id="<same@x>")
    assert (first.outcome, again.outcome) == ("talk", "duplicate")
    assert Message.objects.filter(game=g.game).count() == 1
    # The provider's event id counts too (a provider retrying without a Message-ID).
    send_reply(commit, address, "say ho", message_id="", event_id="postmark:ev1")
    assert send_reply(commit, address, "say ho", message_id="",
                      event_id="postmark:ev1").outcome == "duplicate"
    assert Message.objects.filter(game=g.game).count() == 2


@pytest.mark.parametrize(("headers", "sender", "text"), [
    ({"Auto-Submitted": "auto-replied"}, "p0@example.com", "I am on holiday"),
    ({"Precedence": "bulk"}, "p0@example.com", "pass 1"),
    ({"Precedence": "junk"}, "p0@example.com", "pass 1"),
    ({}, "MAILER-DAEMON@example.com", "pass 1"),
    ({}, "postmaster@example.com", "pass 1"),
])
def test_auto_replies_bounces_and_list_mail_are_dropped_silently(
        commit: Any, headers: dict[str, str], sender: str, text: str) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    result = send_reply(commit, address, text, headers=headers, sender=sender)
    assert result.outcome == "automatic" and g.refresh().version == 0
    assert mail.outbox == [] and not InboundMail.objects.get().answered


def test_a_reply_with_no_words_of_its_own_changes_nothing_and_gets_no_answer(
        commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    result = send_reply(commit, address, "")  # nothing above the quoted original
    assert result.outcome == "empty" and g.refresh().version == 0
    assert mail.outbox == []
    assert bytes(InboundMail.objects.get().payload) == b""  # the stored message is gone


def test_an_unknown_token_changes_nothing_and_gets_no_answer(commit: Any) -> None:
    g = started(commit)
    mail.outbox.clear()
    forged = f"play+{tokens.new_token()}@127.0.0.1"
    assert send_reply(commit, forged, "pass 1").outcome == "unknown"
    assert send_reply(commit, "saboteur@127.0.0.1", "pass 1").outcome == "unknown"
    assert g.refresh().version == 0 and mail.outbox == []


@override_settings(INBOUND_ANSWERS_PER_HOUR=2)
def test_a_sender_gets_a_few_answers_per_hour(commit: Any, clock: Any) -> None:
    started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    for _ in range(3):
        send_reply(commit, address, "play banana")
    assert len(mail.outbox) == 2
    clock.shift(3601)
    send_reply(commit, address, "play banana")
    assert len(mail.outbox) == 3


def test_a_reply_from_another_address_is_noted_for_moderators(commit: Any) -> None:
    g = started(commit)
    result = send_reply(commit, reply_address("p0@example.com"), "pass 1",
                        sender="someone@else.example")
    assert result.outcome == "moved" and g.refresh().version == 1  # the token decides
    record = InboundMail.objects.get()
    assert record.from_mismatch and record.seat_id == g.seats[0].pk
    assert mail.outbox[-1].to != ["someone@else.example"]  # the answer shows the hand


def test_html_only_replies_are_read(commit: Any) -> None:
    g = started(commit)
    result = send_reply(commit, reply_address("p0@example.com"), "",
                        html="<div>pass 1</div><blockquote>play 2 at 1,0</blockquote>")
    assert result.outcome == "moved" and g.refresh().version == 1


def _postmark(address: str, text: str, message_id: str) -> str:
    return json.dumps({
        "FromFull": {"Email": "p0@example.com", "Name": "Ann"},
        "ToFull": [{"Email": address, "Name": ""}], "OriginalRecipient": address,
        "Subject": "Re: your turn",
        "MessageID": "pm-" + message_id, "TextBody": text,
        "Headers": [{"Name": "Message-ID", "Value": f"<{message_id}@x>"}],
    })


@override_settings(ANYMAIL={"WEBHOOK_SECRET": "hook:s3cret"})
def test_the_provider_s_inbound_webhook_makes_the_move(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    url = "/anymail/postmark/inbound/"
    client = Client()
    wrong = base64.b64encode(b"hook:wrong").decode()
    denied = client.post(url, _postmark(address, "pass 1", "a"), content_type="application/json",
                         HTTP_AUTHORIZATION=f"Basic {wrong}")
    assert denied.status_code == 401 and g.refresh().version == 0
    auth = base64.b64encode(b"hook:s3cret").decode()
    with commit():
        ok = client.post(url, _postmark(address, "pass 1", "a"), content_type="application/json",
                         HTTP_AUTHORIZATION=f"Basic {auth}")
    assert ok.status_code == 200 and g.refresh().version == 1
    assert InboundMail.objects.get().event_id.startswith("postmark:")


def test_manage_py_inbound_reads_a_file_or_standard_input(
        commit: Any, tmp_path: Path, monkeypatch: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    raw = inbound(address, "pass 1").as_bytes()
    (tmp_path / "reply.eml").write_bytes(raw)
    out = StringIO()
    with commit():
        call_command("inbound", str(tmp_path / "reply.eml"), stdout=out)
    assert out.getvalue().startswith("moved") and g.refresh().version == 1
    stdin = type("Stdin", (), {"buffer": __import__("io").BytesIO(raw)})()
    monkeypatch.setattr("sys.stdin", stdin)
    out = StringIO()
    call_command("inbound", "-", stdout=out)
    assert out.getvalue().startswith("duplicate")


def test_the_outbox_reply_box_plays_the_turn(commit: Any, settings: Any, tmp_path: Path) -> None:
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "games.mail.core.outbox.OutboxBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    g = started(commit)
    client = Client(enforce_csrf_checks=True)
    page = client.get("/outbox/").content.decode()
    assert "Reply as this player" in page and "csrfmiddlewaretoken" in page
    name = next(p.name for p in tmp_path.iterdir()
                if b"play+" in p.read_bytes() and b"p0@example.com" in p.read_bytes())
    assert client.post(f"/outbox/{name}/reply", {"text": "pass 1"}).status_code == 403  # CSRF
    client = Client()
    assert client.get(f"/outbox/{name}/reply").status_code == 405
    with commit():
        response = client.post(f"/outbox/{name}/reply", {"text": "pass 1"})
    assert response.status_code == 302 and g.refresh().version == 1
    seat_page = client.get(g.page(0)).content.decode()
    assert "passed" in seat_page.lower() or "pass" in seat_page.lower()
    settings.DEBUG = False
    assert client.post(f"/outbox/{name}/reply", {"text": "pass 1"}).status_code == 404


def test_a_game_is_not_playable_after_it_ends_by_email(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    Game.objects.filter(pk=g.game.pk).update(status=Game.Status.PAUSED)
    result = send_reply(commit, address, "pass 1")
    assert result.outcome == "refused" and "paused" in result.detail


def test_moderators_find_from_mismatches_in_the_admin(commit: Any, admin_client: Client) -> None:
    started(commit)
    send_reply(commit, reply_address("p0@example.com"), "pass 1", sender="other@x.example")
    page = admin_client.get("/admin/games/inboundmail/?from_mismatch__exact=1")
    assert page.status_code == 200 and "other@x.example" in page.content.decode()
