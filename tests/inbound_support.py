"""Helpers for the moves-by-email tests: replies built with anymail's inbound message."""

from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from anymail.inbound import AnymailInboundMessage
from django.core import mail

from games.inbound.core.incoming import from_anymail
from games.inbound.services.process import Result
from games.inbound.services.receive import receive

REPLY_TO = re.compile(r"play\+[a-z2-7]{32}@[\w.-]+")


def reply_address(to: str) -> str:
    """The Reply-To of the newest email sent to `to` that has one."""
    for message in reversed(mail.outbox):
        if to in message.to and message.reply_to:
            return str(message.reply_to[0])
    raise AssertionError(f"no email with a Reply-To was sent to {to}")


def inbound(address: str, text: str, *, sender: str = "p0@example.com",
            message_id: str | None = None, headers: dict[str, str] | None = None,
            html: str | None = None,
            subject: str = "Re: Test game: your turn") -> AnymailInboundMessage:
    """A reply as a mail program writes it: the command, a signature, the original quoted."""
    body = f"{text}\n\n-- \nAnn\n\nOn Mon, 2 Mar 2026, Saboteur wrote:\n> play 9 at 9,9\n> old\n"
    return AnymailInboundMessage.construct(
        from_email=sender, to=address, subject=subject,
        headers={"Message-ID": message_id or make_msgid(domain="mail.example.com"),
                 **(headers or {})},
        text=body if html is None else None, html=html)


def raw_reply(address: str, text: str = "", *, html: str = "", subject: str = "Re: your turn",
              charset: str = "utf-8", sender: str = "p0@example.com",
              headers: dict[str, str] | None = None) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = address
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="mail.example.com")
    for name, value in (headers or {}).items():
        message[name] = value
    if html:
        message.set_content(html, subtype="html")
    else:
        message.set_content(text + "\n")
    raw = message.as_bytes()
    if charset != "utf-8":
        raw = raw.replace(b'charset="utf-8"', f'charset="{charset}"'.encode())
    return raw


def send_reply(commit: Any, address: str, text: str, event_id: str = "",
               **kwargs: Any) -> Result:
    """Deliver the reply through the pipeline; on-commit work (answers, turn emails) runs."""
    with commit():
        return receive(from_anymail(inbound(address, text, **kwargs), event_id))


# ---- random MIME trees, for the fuzz test and bench/inbound.py ---------------------------

CHARSETS = ["utf-8", "iso-8859-1", "windows-1252", "iso-2022-jp", "utf-16", "x-unknown-zz",
            "", "us-ascii", "koi8-r", "gb2312"]
KINDS = ["text/plain", "text/html", "application/octet-stream", "image/jpeg",
         "message/rfc822", "text/calendar"]
ENCODINGS = ["7bit", "8bit", "base64", "quoted-printable", "x-bogus", ""]


def random_mime(rng: Any, address: str, size: int, depth: int) -> bytes:
    """A message to `address` whose body is a random tree of parts `depth` deep at most,
    about `size` bytes, with random charsets, transfer encodings and garbage."""
    head = (f"From: p0@example.com\r\nTo: {address}\r\nSubject: Re: fuzz {rng.random()}\r\n"
            f"Message-ID: <{rng.getrandbits(64)}@fuzz.example>\r\nMIME-Version: 1.0\r\n")
    return head.encode() + _part(rng, size, depth)


def _part(rng: Any, size: int, depth: int) -> bytes:
    if depth > 0 and rng.random() < 0.5:
        boundary = f"b{rng.getrandbits(32)}"
        children = [_part(rng, size // 3, depth - 1) for _ in range(rng.randint(1, 3))]
        out = f'Content-Type: multipart/{rng.choice(["mixed", "alternative", "related"])}; ' \
              f'boundary="{boundary}"\r\n\r\n'.encode()
        for child in children:
            out += f"--{boundary}\r\n".encode() + child + b"\r\n"
        if rng.random() < 0.9:  # sometimes never closed
            out += f"--{boundary}--\r\n".encode()
        return out
    charset = rng.choice(CHARSETS)
    kind = rng.choice(KINDS)
    encoding = rng.choice(ENCODINGS)
    params = f'; charset="{charset}"' if charset else ""
    header = f"Content-Type: {kind}{params}\r\n"
    if encoding:
        header += f"Content-Transfer-Encoding: {encoding}\r\n"
    words = ["pass 1", "say hi", "<script ", "<p>", "&amp;", "</div>", ">", "<!--", "\x00",
             "\x1b$B", "\u00e9", "=C3=A9", "=\r\n", "play 3 at 1,0"]
    body = "".join(rng.choice(words) + (" " if rng.random() < 0.3 else "")
                   for _ in range(max(1, size // 6)))
    raw = body.encode("utf-8", "surrogatepass")[:size]
    if rng.random() < 0.2:
        raw = bytes(rng.getrandbits(8) for _ in range(min(size, 4000)))
    return header.encode() + b"\r\n" + raw
