"""An inbound email as plain data, from anymail's parsed message or raw RFC 822 bytes.

The body parts are read leniently: an unknown or wrong charset is decoded as UTF-8 (or
Latin-1) with replacement characters instead of failing, so a player whose mail
program mislabels its text still gets their move made. Only the first text/plain and
text/html parts that are not attachments count, each cut at MAX_PART characters.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses, make_msgid

from anymail.inbound import AnymailInboundMessage

RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")
MAX_PART = 2_000_000
MAX_HEADERS = 200


@dataclass(frozen=True)
class Incoming:
    sender: str  # the From address (not trusted: the token is the credential)
    recipients: tuple[str, ...]  # every address the message was for
    subject: str
    text: str  # the text/plain part ("" when there is none)
    html: str  # the text/html part ("" when there is none)
    message_id: str
    event_id: str  # the provider's id of this delivery, when it gives one
    headers: tuple[tuple[str, str], ...]


def clean(text: str) -> str:
    """`text` as the database can store it: no NUL, no lone surrogate (the email package
    keeps undecodable header bytes as surrogates)."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").replace("\x00", "")


def _header(message: Message, name: str) -> str:
    try:
        return clean(str(message.get(name, "") or ""))
    except (ValueError, TypeError, LookupError):  # a header the policy cannot decode
        return ""


def recipients_of(message: Message, envelope: str = "") -> tuple[str, ...]:
    """Every address the message names as its recipient, the envelope first."""
    found = [envelope] if envelope else []
    for name in RECIPIENT_HEADERS:
        try:
            values = [str(v) for v in message.get_all(name, [])]
        except (ValueError, TypeError, LookupError):
            continue
        found += [address for _name, address in getaddresses(values) if address]
        found += values  # a header the address parser cannot split still counts
    return tuple(clean(address) for address in found if address)


def _decoded(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    payload = payload[: MAX_PART * 4]
    charset = part.get_content_charset() or "utf-8"
    try:
        text = payload.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know: best effort
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            text = payload.decode("latin-1")
    return clean(text[:MAX_PART])


def body_parts(message: Message) -> tuple[str, str]:
    """(text, html): the message's first inline text/plain and text/html parts."""
    text = html = ""
    for part in message.walk():
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and not text:
            text = _decoded(part)
        elif kind == "text/html" and not html:
            html = _decoded(part)
        if text and html:
            break
    return text, html


def from_anymail(message: AnymailInboundMessage, event_id: str = "") -> Incoming:
    sender = ""
    try:
        sender = message.from_email.addr_spec if message.from_email else ""
    except (ValueError, TypeError, IndexError):
        sender = ""
    text, html = body_parts(message)
    return Incoming(
        sender=clean(sender or ""),
        recipients=recipients_of(message, message.envelope_recipient or ""),
        subject=_header(message, "Subject")[:300],
        text=text, html=html,
        message_id=_header(message, "Message-ID").strip()[:250],
        event_id=(event_id or "")[:250],
        headers=tuple((str(k), _header(message, k)) for k in message.keys()[:MAX_HEADERS]),
    )


def from_bytes(raw: bytes) -> Incoming:
    """A raw RFC 822 message (`manage.py inbound`, the outbox's reply box)."""
    return from_anymail(AnymailInboundMessage.parse_raw_mime_bytes(raw))


def header_recipients(raw: bytes) -> tuple[tuple[str, ...], str]:
    """(recipients, subject) read from the header block alone: for a message too large to
    parse whole, the body is never looked at."""
    headers = BytesHeaderParser().parsebytes(raw[:256_000])
    return recipients_of(headers), _header(headers, "Subject")[:300]


def reply_to(original: Message, text: str, domain: str) -> bytes:
    """A raw reply to `original` from its recipient, the original quoted below `text`
    (as a mail program writes it): the outbox page's reply box."""
    body = original.get_body(preferencelist=("plain",)) \
        if isinstance(original, EmailMessage) else None
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
