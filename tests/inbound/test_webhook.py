"""The inbound webhook as a provider drives it: what reaches the server, what it stores,
what a worker does with it, and what it never does (parse a stranger's mail, hold a web
worker, answer a machine, let one email flood the table)."""

from __future__ import annotations

import base64
import json
import random
import tempfile
from email.message import EmailMessage
from email.utils import make_msgid
from io import StringIO
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from anymail.inbound import AnymailInboundMessage
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.game.core.talk_and_notices import Message
from games.inbound.core.inbound_mail import InboundMail
from games.inbound.services import process
from games.mail.core.notifications import Notification
from games.seats.core import reply_tokens as tokens
from games.seats.core.seat import Seat
from tests.inbound_support import inbound, random_mime, raw_reply, reply_address, send_reply
from tests.provider_posts import sendgrid_raw
from tests.support import make_game

pytestmark = pytest.mark.django_db
SECRET = "hook:s3cret"
AUTH = "Basic " + base64.b64encode(SECRET.encode()).decode()


def started(commit: Any, players: int = 3) -> Any:
    with commit():
        return make_game(players=players, seed=1, start=True)


def sendgrid(client: Client, raw: bytes, recipient: str = "") -> Any:
    """SendGrid's Inbound Parse with "POST the raw, full MIME message": a form with the
    message as `email` and the envelope."""
    return sendgrid_raw(client, raw, recipient)


def postmark(client: Client, address: str, text: str, *, subject: str = "Re: your turn",
             sender: str = "p0@example.com", message_id: str = "") -> Any:
    body = json.dumps({
        "FromFull": {"Email": sender, "Name": "Ann"}, "ToFull": [{"Email": address}],
        "OriginalRecipient": address, "Subject": subject, "TextBody": text,
        "MessageID": message_id or make_msgid(), "Headers": [
            {"Name": "Message-ID", "Value": message_id or make_msgid(domain="x.example")}],
    })
    return client.post("/anymail/postmark/inbound/", body, content_type="application/json",
                       HTTP_AUTHORIZATION=AUTH)


OUTCOMES = {*InboundMail.Outcome.values, "dropped", "duplicate"}


@pytest.fixture(autouse=True)
def webhook_secret() -> Any:
    from django.conf import settings as django_settings

    with override_settings(ANYMAIL={**getattr(django_settings, "ANYMAIL", {}),
                                    "WEBHOOK_SECRET": SECRET}):
        yield


# ---- the door: nothing is parsed for a stranger ----------------------------------------


def test_a_strangers_mail_is_dropped_before_anything_parses_it(commit: Any) -> None:
    g = started(commit)
    bomb = raw_reply("play+" + "a" * 32 + "@127.0.0.1", html="<script " * 40000)
    with mock.patch.object(AnymailInboundMessage, "parse_raw_mime",
                           side_effect=AssertionError("parsed")) as parse, \
            mock.patch.object(AnymailInboundMessage, "parse_raw_mime_bytes",
                              side_effect=AssertionError("parsed")):
        answer = sendgrid(Client(), bomb, "play+anything@127.0.0.1")
    # Answered 200 (a provider would retry anything else for days), dropped unread.
    assert answer.status_code == 200 and answer.json() == {"outcomes": ["unknown"]}
    assert not parse.called and not InboundMail.objects.exists()
    assert g.refresh().version == 0


def test_the_html_of_a_reply_is_read_in_one_pass_whatever_it_holds(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    # The stranger's bomb, sent to a live address: read (nothing in it), no move, no 500.
    with commit():
        answer = sendgrid(Client(), raw_reply(address, html="<script " * 40000), address)
    assert answer.status_code == 200 and g.refresh().version == 0
    assert InboundMail.objects.get().outcome == "empty"
    # A real HTML reply with the original quoted, to a fresh address: the move is made.
    address = reply_address("p0@example.com")
    html = "<div>pass 1</div><div><br></div><blockquote>" + "<p>x" * 5000 + "</blockquote>"
    # the task runs below, by hand
    with mock.patch("games.inbound.services.receive.queue_on_commit"):
        assert sendgrid(Client(), raw_reply(address, html=html), address).status_code == 200
    stored = InboundMail.objects.latest("pk")
    assert process.process(stored.pk).outcome == "moved" and g.refresh().version == 1


def test_the_webhook_stores_the_message_and_a_worker_makes_the_move(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    delay = "games.inbound.services.process.process_inbound_mail.delay"
    with mock.patch(delay) as enqueue, commit():
        answer = postmark(Client(), address, "pass 1\nsay good luck")
    # The request only stored the message: no move, no answer yet, the web worker is free.
    assert answer.status_code == 200 and g.refresh().version == 0 and mail.outbox == []
    stored = InboundMail.objects.get()
    assert stored.outcome == "received" and b"pass 1" in bytes(stored.payload)
    enqueue.assert_called_once_with(stored.pk)  # after the commit, its id only
    with commit():
        result = process.process(stored.pk)
    assert result.outcome == "moved" and g.refresh().version == 1
    stored.refresh_from_db()
    assert stored.answered and bytes(stored.payload) == b""  # acted on, not kept
    assert Message.objects.get().text == "good luck"
    assert process.process(stored.pk).outcome == "duplicate"  # a task run twice
    assert g.refresh().version == 1


def test_a_lost_task_is_picked_up_by_the_beat(commit: Any, clock: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    # The broker lost the task.
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"), commit():
        postmark(Client(), address, "pass 1")
    clock.shift(60)
    assert process.unprocessed() == []
    clock.shift(120)
    [lost] = process.unprocessed()
    from games import tasks
    with commit():
        tasks.requeue_unsent()
    assert InboundMail.objects.get(pk=lost).outcome == "moved" and g.refresh().version == 1


# ---- the answer is an email like every other ---------------------------------------------


@override_settings(EMAIL_DOMAIN="saboteur.example.org")
def test_the_answer_is_a_notification_threaded_under_the_reply(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    with commit():
        postmark(Client(), address, "pass 1", message_id="<reply-1@mail.example.com>")
    note = Notification.objects.get(kind="answer")
    assert note.status == "sent" and note.seat_id == g.seats[0].pk
    [answer] = [m for m in mail.outbox if m.subject.startswith("Re:")]
    headers = answer.extra_headers
    assert headers["Message-ID"].endswith("@saboteur.example.org>")
    assert headers["In-Reply-To"] == headers["References"] == "<reply-1@mail.example.com>"
    body = str(answer.body)
    # Like a turn email: what happened, the game's name, the seat's link, the maze.
    assert "Your move was made" in body and "Test game" in body
    assert "/play/" + g.tokens[0] + "/" in body and "The maze" in body
    html = str(answer.alternatives[0][0])  # type: ignore[attr-defined]
    assert "<table" in html and "Test game" in html


def test_an_answer_that_cannot_be_sent_now_is_retried_not_lost(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    with mock.patch("django.core.mail.backends.locmem.EmailBackend.send_messages",
                    side_effect=OSError("SMTP stalled")), commit():
        postmark(Client(), address, "pass 1")
    assert g.refresh().version == 1
    note = Notification.objects.get(kind="answer")
    assert note.status == "retrying" and note.retry_at is not None
    assert InboundMail.objects.get().answered  # planned, and the row will be sent


# ---- machines and floods ---------------------------------------------------------------------


@pytest.mark.parametrize("subject", [
    "Automatic reply: your turn", "Out of Office: Re: Test game", "Risposta automatica: Re: x",
    "Abwesenheitsnotiz: Re: Test game", "Afwezig: Re: Test game",
    "Respuesta automática: Re: Test game", "AW: Automatische Antwort: Test",
    "Automatisch antwoord: Test game", "Fuori sede fino al 3 marzo"])
def test_auto_replies_are_known_by_their_subject_and_never_answered(
        commit: Any, subject: str) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    with commit():
        answer = postmark(Client(), address, "I am away until Monday. pass 1", subject=subject)
    assert answer.status_code == 200 and g.refresh().version == 0
    assert mail.outbox == [] and InboundMail.objects.get().outcome == "automatic"


@override_settings(INBOUND_ANSWERS_PER_HOUR=3)
def test_answers_are_limited_per_seat_whatever_the_from_address(commit: Any) -> None:
    started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    for n in range(15):
        send_reply(commit, address, "play banana", sender=f"someone{n}@else.example")
    assert Notification.objects.filter(kind="answer").count() == 3
    assert len([m for m in mail.outbox if m.to == ["p0@example.com"]]) == 3


def test_one_email_posts_a_few_lines_of_talk_and_refuses_the_rest(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    result = send_reply(commit, address, "\n".join(f"say line {n}" for n in range(3000)))
    assert Message.objects.filter(game=g.game).count() == 3
    assert any("2997 more lines of table talk were not posted" in line for line in result.answer)


@override_settings(RATE_LIMITS={"talk_seat": [4, 600]})
def test_the_pages_talk_limit_counts_email_talk_too(commit: Any) -> None:
    g = started(commit)
    for _ in range(3):
        send_reply(commit, reply_address("p0@example.com"), "say hi\nsay again")
    assert Message.objects.filter(game=g.game).count() == 4
    page = Client().post(g.page(0) + "say", {"text": "one more"})
    assert page.status_code == 429 and Message.objects.filter(game=g.game).count() == 4


# ---- a seat's reply addresses die with its link, its player, its person ---------------------


def _seat(g: Any, number: int) -> Seat:
    return Seat.objects.get(pk=g.seats[number].pk)


@pytest.mark.parametrize("change", ["new link", "replaced", "to bot", "to bot and back"])
def test_a_seat_change_kills_every_reply_address_of_its_emails(
        commit: Any, django_user_model: Any, change: str) -> None:
    from games.moderation.services import bot_seats, seats
    from games.moves.services import seat_services as services

    g = started(commit)
    old = reply_address("p0@example.com")
    moderator = django_user_model.objects.create_user("mod", password="x")
    with commit():
        if change == "new link":
            services.rotate_link(g.seats[0].pk)
        elif change == "replaced":
            seats.replace_player(g.seats[0].pk, name="Zed", email="zed@example.com",
                                 moderator=moderator, reason="player cheated")
        else:
            bot_seats.hand_to_bot(g.seats[0].pk, moderator=moderator, reason="absent")
            if change == "to bot and back":
                bot_seats.hand_to_person(g.seats[0].pk, moderator=moderator, reason="back")
    version = g.refresh().version
    mail.outbox.clear()
    result = send_reply(commit, old, "pass 1\nsay I am still here")
    assert result.outcome == "unknown" and result.answer == []
    assert g.refresh().version == version and not Message.objects.exists()
    assert [m for m in mail.outbox if "Re:" in m.subject] == []


def test_a_reply_stored_before_the_link_changed_is_not_acted_on(commit: Any) -> None:
    from games.moves.services import seat_services as services

    g = started(commit)
    address = reply_address("p0@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"), commit():
        postmark(Client(), address, "pass 1")
    services.rotate_link(g.seats[0].pk)
    stored = InboundMail.objects.get()
    assert process.process(stored.pk).outcome == "unknown" and g.refresh().version == 0


# ---- malformed and oversized mail: a clear answer, never a 500 -------------------------------


def test_an_unknown_charset_is_read_as_best_it_can(commit: Any) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    with commit():
        answer = sendgrid(Client(), raw_reply(address, "pass 1", charset="x-unknown-zz"),
                         address)
    assert answer.status_code == 200 and g.refresh().version == 1


def _nested(address: str, depth: int) -> bytes:
    head = (f"From: p0@example.com\r\nTo: {address}\r\nSubject: Re: x\r\n"
            "MIME-Version: 1.0\r\n")
    body = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'
                   for i in range(depth))
    body += "Content-Type: text/plain\r\n\r\npass 1\r\n"
    body += "".join(f"--b{i}--\r\n" for i in reversed(range(depth)))
    return (head + body).encode()


def test_mime_nested_a_thousand_deep_is_refused_unparsed_and_the_seat_told(
        commit: Any, tmp_path: Path) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    with commit():
        answer = sendgrid(Client(raise_request_exception=False), _nested(address, 1200), address)
    assert answer.status_code == 200 and answer.json() == {"outcomes": ["received"]}
    assert g.refresh().version == 0 and InboundMail.objects.get().outcome == "malformed"
    [told] = [m for m in mail.outbox if m.to == ["p0@example.com"]]
    assert "could not read your email" in str(told.body)
    # The command line says so in one line, no traceback.
    (tmp_path / "deep.eml").write_bytes(_nested(reply_address("p0@example.com"), 1200))
    out = StringIO()
    call_command("inbound", str(tmp_path / "deep.eml"), stdout=out)
    assert out.getvalue().startswith("malformed:") and "Traceback" not in out.getvalue()


def test_a_reply_over_the_size_limit_gets_an_answer_saying_so(
        commit: Any, tmp_path: Path) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    photo = EmailMessage()
    photo["From"], photo["To"], photo["Subject"] = "p0@example.com", address, "Re: your turn"
    photo.set_content("pass 1\n")
    photo.add_attachment(b"\xff" * 3_000_000, maintype="image", subtype="jpeg",
                         filename="photo.jpg")
    mail.outbox.clear()
    with commit():
        answer = sendgrid(Client(), photo.as_bytes(), address)
    assert answer.status_code == 200 and g.refresh().version == 0
    assert InboundMail.objects.get().outcome == "too_large"
    [told] = [m for m in mail.outbox if m.to == ["p0@example.com"]]
    assert "larger than" in str(told.body) and "without attachments" in str(told.body)
    (tmp_path / "big.eml").write_bytes(photo.as_bytes().replace(b"Re: your turn", b"Re: 2"))
    out = StringIO()
    call_command("inbound", str(tmp_path / "big.eml"), stdout=out)
    assert out.getvalue().startswith("too_large:")


@override_settings(INBOUND_MAX_REQUEST_BYTES=1000)
def test_a_request_over_the_hard_limit_is_dropped_unread(commit: Any) -> None:
    started(commit)
    address = reply_address("p0@example.com")
    answer = sendgrid(Client(), raw_reply(address, "pass 1 " + "x" * 2000), address)
    assert answer.status_code == 200 and answer.json() == {"outcomes": ["too_large"]}
    assert not InboundMail.objects.exists()


def test_an_api_move_with_a_lone_surrogate_is_a_400(game: Any) -> None:
    client = Client(raise_request_exception=False)
    body = '{"version": 0, "move": {"type": "pass", "card": "\\ud800"}}'
    answer = client.post(game.api(0) + "moves", body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_json"
    page = client.post(game.page(0) + "move",
                       {"version": 0, "move": '{"type": "pass", "card": "\\ud800"}'})
    assert page.status_code == 400 and game.refresh().version == 0


def test_a_token_in_a_log_line_is_redacted() -> None:
    from saboteur_site.log_redaction import redact

    token = tokens.new_token()
    assert token not in redact(f"mail for play+{token}@reply.example.org dropped")


def test_a_moves_reply_address_is_its_seats_whoever_moved_since(commit: Any) -> None:
    """The engine still judges: an address for version 0 after the table moved on."""
    g = started(commit)
    address = reply_address("p0@example.com")
    view = engine.view(g.refresh().state(), 0)
    with commit():
        postmark(Client(), address, "pass 1")
    assert g.refresh().version == 1 and view["seat"] == 0
    with commit():
        postmark(Client(), address, "pass 2")
    assert InboundMail.objects.latest("pk").outcome == "stale"


def test_raw_inbound_parts_are_plain_data() -> None:
    """inbound_support's replies round-trip through the door's parser."""
    from games.inbound.core.incoming import from_bytes

    parsed = from_bytes(bytes(inbound("play+" + "b" * 32 + "@x", "pass 1").as_bytes()))
    assert parsed.text.startswith("pass 1") and parsed.recipients[0].startswith("play+")


# ---- fuzz: random MIME trees, charsets and sizes -------------------------------------------


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), size=st.integers(0, 200_000), depth=st.integers(0, 25))
def test_random_mime_never_makes_a_500(commit: Any, seed: int, size: int, depth: int) -> None:
    g = make_game(players=3, seed=1, start=True)
    address = tokens.issue(Seat.objects.get(pk=g.seats[0].pk), g.refresh().version)
    raw = random_mime(random.Random(seed), address, size, depth)
    with commit():
        answer = sendgrid(Client(raise_request_exception=False), raw, address)
    assert answer.status_code == 200, answer.content[:200]
    for stored in InboundMail.objects.filter(outcome="received"):
        assert process.process(stored.pk).outcome != "received"
    # The command line reads the same bytes and says what happened in a line.
    path = Path(tempfile.mkdtemp()) / "fuzz.eml"
    path.write_bytes(raw)
    out = StringIO()
    call_command("inbound", str(path), stdout=out)
    assert out.getvalue().split(":", 1)[0] in OUTCOMES, out.getvalue()[:200]
