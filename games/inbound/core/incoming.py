"""An inbound email as plain data, read in the worker from what the webhook stored: raw
RFC 822 bytes (parsed under `games.inbound.core.screen`'s limits), the head of a message too
large to read (its headers only), or the fields a provider parsed itself
(`games.inbound.core.providers`).

The body parts are read leniently: an unknown or wrong charset is decoded as UTF-8 (or
Latin-1) with replacement characters instead of failing, so a player whose mail
program mislabels its text still gets their move made (punycode, whose decoder takes
time growing with the square of the size, is read as UTF-8). Only the first text/plain
and text/html parts that are not attachments count, each cut at MAX_PART characters.
"""

from __future__ import annotations

import codecs
import json
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.policy import default as default_policy
from email.utils import getaddresses, make_msgid, parseaddr
from typing import Any

from anymail.inbound import AnymailInboundMessage

from games.inbound.core import screen

RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")
MAX_PART = 2_000_000
MAX_HEADERS = 200
HEADER_BLOCK = 256_000
# Decoders whose time grows faster than the text: such a label is read as UTF-8.
SLOW_CODECS = frozenset({"punycode"})


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
    return clean(decode(payload[: MAX_PART * 4], part.get_content_charset() or "utf-8")
                 [:MAX_PART])


def decode(payload: bytes, charset: str) -> str:
    """`payload` in `charset`, leniently (see the module's docstring)."""
    try:
        if codecs.lookup(charset).name in SLOW_CODECS:
            raise LookupError(charset)
        return payload.decode(charset, errors="replace")
    except (LookupError, UnicodeError, TypeError, ValueError):  # unknown: best effort
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            return payload.decode("latin-1")


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
    """A raw RFC 822 message, parsed under the worker's limits (screen.Unreadable)."""
    return from_anymail(screen.parse(raw))


def _header_block(raw: bytes) -> AnymailInboundMessage:
    try:
        parser = BytesHeaderParser(AnymailInboundMessage, policy=default_policy)
        headers = parser.parsebytes(raw[:HEADER_BLOCK])
    except (ValueError, TypeError, LookupError, IndexError) as error:
        raise screen.Unreadable(f"its headers: {type(error).__name__}") from None
    assert isinstance(headers, AnymailInboundMessage)
    return headers


def from_head(raw: bytes) -> Incoming:
    """The headers of a message too large to read (its body is never looked at)."""
    head = _header_block(raw)
    head.set_payload("")
    return from_anymail(head)


def header_recipients(raw: bytes) -> tuple[str, ...]:
    """The recipients named by the header block alone (`manage.py inbound`: a file has no
    envelope)."""
    return recipients_of(_header_block(raw))


def from_fields(payload: bytes) -> Incoming:
    """A message a provider parsed itself (`providers.parsed_fields`)."""
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        raise screen.Unreadable("its stored fields") from None
    if not isinstance(data, dict):
        raise screen.Unreadable("its stored fields")
    given = data.get("charsets")
    charsets: dict[str, Any] = given if isinstance(given, dict) else {}

    def text(name: str, field: str = "") -> str:
        value = data.get(name)
        value = value if isinstance(value, str) else ""
        charset = charsets.get(field or name)
        if isinstance(charset, str):  # the posted bytes, kept as Latin-1 (SendGrid)
            value = decode(value.encode("latin-1", "replace"), charset)
        return clean(value[:MAX_PART])

    headers = [(clean(str(pair[0])), clean(str(pair[1]))) for pair in data.get("headers") or []
               if isinstance(pair, list) and len(pair) == 2][:MAX_HEADERS]
    block = text("header_block", "headers")
    if block:  # raw header lines (SendGrid's "headers"): read as a header block
        headers += [(str(k), _header(parsed, k)) for parsed in
                    [_header_block(block.encode("utf-8", "replace"))]
                    for k in parsed.keys()[:MAX_HEADERS]]
    found = {name.lower(): value for name, value in reversed(headers)}
    sender = text("sender", "from") or found.get("from", "")
    return Incoming(
        sender=clean(parseaddr(sender)[1] or sender)[:254],
        recipients=(), subject=(text("subject") or found.get("subject", ""))[:300],
        text=text("text"), html=text("html"),
        message_id=(text("message_id") or found.get("message-id", "")).strip()[:250],
        event_id="", headers=tuple(headers))


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
