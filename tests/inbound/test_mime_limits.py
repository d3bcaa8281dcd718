"""One crafted email never holds a web worker, nor a worker for long: the web request
stores the bytes without parsing them, and the worker's parser stops at limits that count
every spelling of a multipart header (issue 34, item 2)."""

from __future__ import annotations

import email.feedparser
import sys
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any
from unittest import mock

import pytest
from anymail.inbound import AnymailInboundMessage
from celery.exceptions import SoftTimeLimitExceeded
from django.core import mail
from django.test import Client

from games.inbound.core import screen
from games.inbound.core.inbound_mail import InboundMail
from games.inbound.services import process
from games.seats.core import reply_tokens as tokens
from games.seats.core.seat import Seat
from tests.inbound_support import raw_reply, reply_address
from tests.provider_posts import sendgrid_raw, webhook_settings
from tests.support import make_game

pytestmark = pytest.mark.django_db

# The spellings of one multipart level that Python's parser honours (each checked below).
SPELLINGS: dict[str, Callable[[int], str]] = {
    "plain": lambda i: f'Content-Type: multipart/mixed; boundary="b{i}"',
    "folded": lambda i: f"Content-Type: multipart/mixed;\r\n boundary\r\n =b{i}",
    "rfc2231": lambda i: f"Content-Type: multipart/mixed; boundary*=''b{i}",
    "rfc2231 continued": lambda i: f"Content-Type: multipart/mixed; boundary*0=b; boundary*1={i}",
    "upper case": lambda i: f'CONTENT-TYPE: MULTIPART/MIXED; BOUNDARY="b{i}"',
    "type folded": lambda i: f"Content-Type:\r\n multipart/mixed; boundary=b{i}",
    "tabs": lambda i: f"Content-Type:\tmultipart/mixed;\tboundary=b{i}",
    "encoded word": lambda i: f"Content-Type: =?utf-8?b?bXVsdGlwYXJ0L21peGVk?=; boundary=b{i}",
}


def nested(address: str, spelling: Callable[[int], str], depth: int, lines: int,
           newline: str = "\r\n") -> bytes:
    """A message nested `depth` deep, `lines` short lines at the bottom."""
    head = (f"From: p0@example.com\r\nTo: {address}\r\nSubject: Re: x\r\n"
            "MIME-Version: 1.0\r\n")
    body = "".join(spelling(i) + f"\r\n\r\n--b{i}\r\n" for i in range(depth))
    body += "Content-Type: text/plain\r\n\r\npass 1\r\n" + "x\r\n" * lines
    body += "".join(f"--b{i}--\r\n" for i in reversed(range(depth)))
    return (head + body).replace("\r\n", newline).encode()


def depth_parsed(raw: bytes) -> int:
    from email import message_from_bytes
    from email.policy import default

    part: Any = message_from_bytes(raw, policy=default)
    depth = 0
    while part.is_multipart():
        part, depth = part.get_payload()[0], depth + 1
    return depth


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
@pytest.mark.parametrize("name", list(SPELLINGS))
def test_every_spelling_of_a_multipart_level_is_counted(name: str, newline: str) -> None:
    raw = nested("a@b.example", SPELLINGS[name], 30, 10, newline)
    assert depth_parsed(raw) == 30  # Python's parser honours this spelling...
    assert screen.multipart_declarations(raw) >= 30  # ...and the count sees every level
    with pytest.raises(screen.Unreadable, match="multipart declarations"):
        screen.parse(raw)


def test_a_real_reply_with_alternatives_pictures_and_a_forward_is_read() -> None:
    reply = EmailMessage()
    reply["From"], reply["To"], reply["Subject"] = "p0@example.com", "a@b.example", "Re: x"
    reply.set_content("pass 1\n")
    reply.add_alternative("<p>pass 1</p>", subtype="html")
    forwarded = EmailMessage()
    forwarded["Subject"] = "fwd"
    forwarded.set_content("an older mail")
    reply.add_attachment(forwarded)
    for n in range(12):
        reply.add_attachment(b"\xff" * 1000, maintype="image", subtype="jpeg",
                             filename=f"{n}.jpg")
    raw = reply.as_bytes()
    assert screen.multipart_declarations(raw) <= screen.MAX_MULTIPART
    assert screen.parse(raw).get_body(("plain",)).get_content() == "pass 1\n"  # type: ignore[union-attr]


def test_the_parser_stops_itself_whatever_the_count_missed(monkeypatch: Any) -> None:
    """A spelling the count would miss still meets the parser's own limits: depth, parts
    and CPU time, checked while it parses."""
    monkeypatch.setattr(screen, "MAX_MULTIPART", 10**9)
    with pytest.raises(screen.Unreadable, match="nested more than 20 deep"):
        screen.parse(nested("a@b.example", SPELLINGS["folded"], 400, 100))
    flat = ("Content-Type: multipart/mixed; boundary=b\r\n\r\n"
            + "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" * 600 + "--b--\r\n").encode()
    with pytest.raises(screen.Unreadable, match="more than 500 parts"):
        screen.parse(flat)
    monkeypatch.setattr(screen, "PARSE_CPU_SECONDS", -1.0)  # no time at all
    with pytest.raises(screen.Unreadable, match="of parsing"):
        screen.parse(raw_reply("a@b.example", "pass 1"))


class CallCounter:
    """How many Python and C functions run: a measure of work that no clock or load
    changes (the test times nothing)."""

    def __init__(self) -> None:
        self.calls = 0

    def __enter__(self) -> CallCounter:
        sys.setprofile(self._count)
        return self

    def __exit__(self, *args: object) -> None:
        sys.setprofile(None)

    def _count(self, frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            self.calls += 1


def _refuse(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("the email was parsed (or built) in the web request")


@pytest.mark.parametrize("name", ["folded", "rfc2231"])
def test_the_bomb_is_stored_unparsed_by_the_web_request_and_refused_by_the_worker(
        commit: Any, name: str) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    address = reply_address("p0@example.com")
    bomb = nested(address, SPELLINGS[name], 400, 759_000)
    assert 2_200_000 < len(bomb) < 2_500_000
    other = tokens.issue(Seat.objects.get(pk=g.seats[1].pk), 0)
    small = raw_reply(other, "pass 1")
    client = Client()
    mail.outbox.clear()
    with webhook_settings(), \
            mock.patch("games.inbound.services.process.process_inbound_mail.delay"), \
            mock.patch.object(email.feedparser.FeedParser, "__init__", _refuse), \
            mock.patch.object(AnymailInboundMessage, "__init__", _refuse):
        with CallCounter() as tiny_request:
            tiny = sendgrid_raw(client, small, other)
        with commit(), CallCounter() as bomb_request:
            answer = sendgrid_raw(client, bomb, address)
    assert tiny.status_code == answer.status_code == 200
    assert answer.json() == {"outcomes": ["received"]}
    # The request's work does not grow with the message: a parse of 760,000 lines would
    # run millions of functions; storing it runs as many as storing a two-line reply.
    assert bomb_request.calls < 1.5 * tiny_request.calls + 1000, (
        bomb_request.calls, tiny_request.calls)
    stored = InboundMail.objects.get(seat__number=0)
    assert stored.outcome == "received" and stored.size == len(bomb)
    # The worker refuses it before parsing, and tells the seat.
    with commit(), CallCounter() as worker:
        result = process.process(stored.pk)
    assert result.outcome == "malformed" and "multipart declarations" in result.detail
    assert worker.calls < 100_000  # no parse: a few functions per declaration at most
    stored.refresh_from_db()
    assert stored.answered and bytes(stored.payload) == b"" and g.refresh().version == 0
    [told] = [m for m in mail.outbox if m.to == ["p0@example.com"]]
    assert "could not read your email" in str(told.body)


def test_the_task_has_time_limits_and_a_message_past_them_is_answered(commit: Any) -> None:
    assert process.process_inbound_mail.soft_time_limit == process.SOFT_TIME_LIMIT
    assert process.process_inbound_mail.time_limit == process.TIME_LIMIT
    assert process.SOFT_TIME_LIMIT < process.TIME_LIMIT <= 60
    with commit():
        g = make_game(players=3, seed=1, start=True)
    address = reply_address("p0@example.com")
    delay = "games.inbound.services.process.process_inbound_mail.delay"
    with webhook_settings(), mock.patch(delay):
        sendgrid_raw(Client(), raw_reply(address, "pass 1"), address)
    stored = InboundMail.objects.get()
    mail.outbox.clear()
    with commit(), mock.patch("games.inbound.services.process.from_bytes",
                              side_effect=SoftTimeLimitExceeded()):
        outcome = process.process_inbound_mail.apply(args=(stored.pk,)).get()
    assert outcome == "malformed" and g.refresh().version == 0
    [told] = [m for m in mail.outbox if m.to == ["p0@example.com"]]
    assert "could not read your email" in str(told.body)
