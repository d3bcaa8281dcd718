"""Helpers for the moves-by-email tests: replies built with anymail's inbound message."""

from __future__ import annotations

import re
from email.utils import make_msgid
from typing import Any

from anymail.inbound import AnymailInboundMessage
from django.core import mail

from games.mail.inbound.incoming import from_anymail
from games.play.inbound import Result, receive

REPLY_TO = re.compile(r"play\+[a-z2-7]{32}@[\w.-]+")


def reply_address(to: str) -> str:
    """The Reply-To of the newest email sent to `to` that has one."""
    for message in reversed(mail.outbox):
        if to in message.to and message.reply_to:
            return str(message.reply_to[0])
    raise AssertionError(f"no email with a Reply-To was sent to {to}")


def inbound(address: str, text: str, *, sender: str = "p0@example.com",
            message_id: str | None = None, headers: dict[str, str] | None = None,
            html: str | None = None) -> AnymailInboundMessage:
    """A reply as a mail program writes it: the command, a signature, the original quoted."""
    body = f"{text}\n\n-- \nAnn\n\nOn Mon, 2 Mar 2026, Saboteur wrote:\n> play 9 at 9,9\n> old\n"
    return AnymailInboundMessage.construct(
        from_email=sender, to=address, subject="Re: Test game: your turn",
        headers={"Message-ID": message_id or make_msgid(domain="mail.example.com"),
                 **(headers or {})},
        text=body if html is None else None, html=html)


def send_reply(commit: Any, address: str, text: str, event_id: str = "",
               **kwargs: Any) -> Result:
    """Deliver the reply through the pipeline; on-commit work (answers, turn emails) runs."""
    with commit():
        return receive(from_anymail(inbound(address, text, **kwargs), event_id))
