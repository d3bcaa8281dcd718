"""An inbound email as plain data, from anymail's parsed message or raw RFC 822 bytes."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.message import EmailMessage as ParsedEmail
from email.utils import make_msgid

from anymail.inbound import AnymailInboundMessage

from games.mail.inbound.text import body_text

RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")


@dataclass(frozen=True)
class Incoming:
    sender: str  # the From address (not trusted: the token is the credential)
    recipients: tuple[str, ...]  # every address the message was for
    subject: str
    text: str
    message_id: str
    event_id: str  # the provider's id of this delivery, when it gives one
    headers: tuple[tuple[str, str], ...]


def from_anymail(message: AnymailInboundMessage, event_id: str = "") -> Incoming:
    sender = message.from_email.addr_spec if message.from_email else ""
    recipients = [message.envelope_recipient or ""]
    for header in RECIPIENT_HEADERS:
        recipients += [str(value) for value in message.get_all(header, [])]
    return Incoming(
        sender=sender or "", recipients=tuple(r for r in recipients if r),
        subject=str(message.subject or ""),
        text=body_text(message.text or "", message.html or ""),
        message_id=str(message.get("Message-ID", "") or "").strip()[:250],
        event_id=(event_id or "")[:250],
        headers=tuple((str(k), str(v)) for k, v in message.items()),
    )


def from_bytes(raw: bytes) -> Incoming:
    """A raw RFC 822 message (`manage.py inbound`, the outbox's reply box)."""
    return from_anymail(AnymailInboundMessage.parse_raw_mime_bytes(raw))


def reply_to(original: ParsedEmail, text: str, domain: str) -> bytes:
    """A raw reply to `original` from its recipient, the original quoted below `text`
    (as a mail program writes it): the outbox page's reply box."""
    body = original.get_body(preferencelist=("plain",))
    quoted = str(body.get_content()) if isinstance(body, EmailMessage) else ""
    reply = EmailMessage()
    reply["From"] = str(original["To"] or "")
    reply["To"] = str(original["Reply-To"] or original["From"] or "")
    reply["Subject"] = f"Re: {original['Subject'] or ''}"
    reply["Message-ID"] = make_msgid(domain=domain)
    if original["Message-ID"]:
        reply["In-Reply-To"] = reply["References"] = str(original["Message-ID"])
    reply.set_content(text.strip() + "\n\n" + "\n".join(
        f"> {line}" for line in quoted.splitlines()) + "\n")
    return reply.as_bytes()
