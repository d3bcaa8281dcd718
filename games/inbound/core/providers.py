"""What each email provider posts to the inbound webhook, read without reading the email.

The web request (`games.inbound.doors.webhook`) authenticates the post with
anymail's own checks, then asks this module for the deliveries it carries: who each
message was for, from the provider's envelope (the recipient the provider's SMTP server
accepted, never a header of the message), the provider's id of the delivery, and the
message kept as the provider sent it, for the worker to read:

    provider    the post                              envelope             the message
    postmark    JSON                                  OriginalRecipient    RawEmail, else
                                                                           its parsed fields
    mailgun     a form (inbound_mime/ or inbound/)    recipient            body-mime, else
                                                                           its parsed fields
    amazon_ses  an SNS notification (JSON)            receipt.recipients   content (an SNS
                                                                           action) or the S3
                                                                           object (S3 action)
    brevo       JSON, a list of parsed messages       Delivered-To, else   its parsed fields
                                                      To and Cc
    sendgrid    a form                                envelope.to          email (raw), else
                                                                           its parsed fields

Nothing here parses MIME or builds a message: a form is split at its boundary, JSON is
decoded, base64 is decoded; all linear in the post's size. anymail's own views parse the
message in the request (and fetch Brevo's attachments and SES's S3 objects), which is why
the webhook never hands a post to them.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from email.utils import getaddresses
from functools import cached_property
from typing import Any
from urllib.parse import parse_qsl

from django.http import QueryDict
from django.utils.http import parse_header_parameters

# The providers the webhook reads (docs/operations.md "Pointing a provider at the server").
SUPPORTED = ("postmark", "mailgun", "amazon_ses", "brevo", "sendgrid")
# The head of a message too large to read: its header block, for the answer's subject and
# thread (the worker reads the headers only).
HEAD_BYTES = 65_536
# A provider's parsed text or HTML kept (the worker reads the first 64,000 characters).
MAX_FIELD_CHARS = 2_000_000
MAX_FORM_FIELDS = 200
MAX_RECIPIENTS = 50
MAX_HEADERS = 200


class Format:
    """How a stored message is kept (InboundMail.payload_format)."""

    MIME = "mime"  # the raw RFC 822 bytes (or their head, for one too large to read)
    FIELDS = "fields"  # JSON: the provider's parsed fields (see `parsed_fields`)
    S3 = "s3"  # JSON: {"bucket", "key"} of the message in Amazon S3


@dataclass(frozen=True)
class Delivery:
    """One inbound email as the provider posted it, unread."""

    recipients: tuple[str, ...]  # the envelope: whom the provider delivered it to
    event_id: str  # the provider's own id of the message ("" when it gives none)
    payload_format: str
    payload: bytes
    size: int  # the message's size in bytes (0: unknown until the worker fetches it)


class NotInbound(Exception):
    """An authenticated post that carries no email: a provider's test, a tracking webhook
    pointed here, a post the provider's format does not describe."""


def parsed_fields(*, sender: str = "", subject: str = "", text: str = "", html: str = "",
                  message_id: str = "", headers: Iterable[tuple[str, str]] = (),
                  header_block: str = "", charsets: Mapping[str, str] | None = None) -> bytes:
    """A message the provider parsed itself, as the FIELDS payload. `header_block`: the
    raw header lines (SendGrid's), read in the worker; `charsets`: the charset of each
    field whose value holds the posted bytes as Latin-1 (SendGrid's), decoded there."""
    data: dict[str, Any] = {
        "sender": sender[:1000], "subject": subject[:1000], "text": text[:MAX_FIELD_CHARS],
        "html": html[:MAX_FIELD_CHARS],
        "message_id": message_id,
        "headers": [[str(name), str(value)] for name, value in list(headers)[:MAX_HEADERS]],
        "header_block": header_block[:MAX_FIELD_CHARS], "charsets": dict(charsets or {})}
    return json.dumps(data).encode()


def mime_delivery(recipients: Iterable[str], event_id: str, raw: bytes,
                  max_bytes: int) -> Delivery:
    """A raw message; over `max_bytes` only its head is kept (its seat is told)."""
    kept = raw if len(raw) <= max_bytes else raw[:HEAD_BYTES]
    return Delivery(_clean(recipients), event_id, Format.MIME, kept, len(raw))


def _clean(recipients: Iterable[str]) -> tuple[str, ...]:
    return tuple(str(r) for r in list(recipients)[:MAX_RECIPIENTS] if r)


# ---- the post as anymail's checks read it -------------------------------------------------


class Posted:
    """A provider's post as the webhook read it: what anymail's signature checks read of a
    request (META, body, content_type, encoding, POST) and the form's fields as bytes,
    split by `form_fields` (Django's own form parser refuses a field over
    DATA_UPLOAD_MAX_MEMORY_SIZE and decodes the raw email to text)."""

    def __init__(self, meta: Mapping[str, Any], body: bytes) -> None:
        self.META = meta
        self.body = body
        header = str(meta.get("CONTENT_TYPE") or "")
        self.content_type, self.content_params = parse_header_parameters(header)
        self.encoding: str | None = None
        self.form = form_fields(self.content_type, self.content_params, body)

    @cached_property
    def POST(self) -> QueryDict:
        post = QueryDict(mutable=True)
        for name, values in self.form.items():
            post.setlist(name, [value.decode("utf-8", "replace") for value in values])
        return post

    def text(self, name: str) -> str:
        """The form field `name` as text ("" when absent)."""
        values = self.form.get(name)
        return values[-1].decode("utf-8", "replace") if values else ""

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except (ValueError, RecursionError):
            raise NotInbound("the body is not JSON") from None


def form_fields(content_type: str, params: Mapping[str, str],
                body: bytes) -> dict[str, list[bytes]]:
    """The fields of a form post, as the bytes posted (an email keeps its own bytes)."""
    if content_type == "application/x-www-form-urlencoded":
        pairs = parse_qsl(body.decode("latin-1"), keep_blank_values=True, encoding="latin-1",
                          max_num_fields=MAX_FORM_FIELDS)
        found: dict[str, list[bytes]] = {}
        for name, value in pairs:
            found.setdefault(name, []).append(value.encode("latin-1"))
        return found
    boundary = params.get("boundary", "")
    if content_type != "multipart/form-data" or not boundary:
        return {}
    return _multipart_fields(body, ("--" + boundary).encode("latin-1"))


def _multipart_fields(body: bytes, delimiter: bytes) -> dict[str, list[bytes]]:
    """RFC 7578: parts between delimiter lines, each a header block, a blank line and the
    value. One forward scan with bytes.find: linear in the body's size."""
    found: dict[str, list[bytes]] = {}
    at = body.find(delimiter)
    count = 0
    while at >= 0 and count < MAX_FORM_FIELDS:
        start = at + len(delimiter)
        if body.startswith(b"--", start):
            break  # the closing delimiter
        end = body.find(b"\r\n" + delimiter, start)
        if end < 0:
            break  # never closed: the rest is no field
        head_end = body.find(b"\r\n\r\n", start, end)
        if head_end >= 0:
            name = _field_name(body[start:head_end])
            if name:
                found.setdefault(name, []).append(body[head_end + 4:end])
                count += 1
        at = end + 2
    return found


def _field_name(head: bytes) -> str:
    for line in head.split(b"\r\n"):
        name, _sep, value = line.partition(b":")
        if name.strip().lower() == b"content-disposition":
            _kind, params = parse_header_parameters(value.decode("latin-1").strip())
            return params.get("name", "")
    return ""


# ---- each provider -------------------------------------------------------------------------


def _addresses(values: Iterable[Any]) -> list[str]:
    """The addresses of header-like values ("Ann <a@x>, b@y") or plain addresses."""
    texts = [value for value in values if isinstance(value, str) and value]
    return [address for _name, address in getaddresses(texts) if address] or texts


def _event(esp: str, value: Any) -> str:
    return f"{esp}:{value}"[:250] if isinstance(value, str | int) and str(value) else ""


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ""


def _dict(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    return value if isinstance(value, list) else []


def _sendgrid(posted: Posted, max_bytes: int) -> list[Delivery]:
    try:
        envelope = json.loads(posted.text("envelope") or "{}")
    except (ValueError, RecursionError):
        envelope = {}
    to = envelope.get("to") if isinstance(envelope, dict) else None
    recipients = _addresses(to if isinstance(to, list) else [to])
    # SendGrid gives no id of its own: the webhook keys the message by its bytes.
    if "email" in posted.form:  # "POST the raw, full MIME message"
        return [mime_delivery(recipients, "", posted.form["email"][-1], max_bytes)]
    if "headers" not in posted.form and "text" not in posted.form:
        raise NotInbound("neither the raw email nor its parsed fields")
    try:
        charsets = json.loads(posted.text("charsets") or "{}")
    except (ValueError, RecursionError):
        charsets = {}
    charsets = {str(k): str(v) for k, v in charsets.items()} if isinstance(charsets, dict) \
        else {}

    def raw(name: str) -> str:  # the posted bytes, decoded in the worker by `charsets`
        values = posted.form.get(name)
        return values[-1].decode("latin-1") if values else ""

    payload = parsed_fields(
        sender=raw("from"), subject=raw("subject"), text=raw("text"), html=raw("html"),
        header_block=raw("headers"),
        charsets={name: charsets.get(name, "utf-8")
                  for name in ("from", "subject", "text", "html", "headers")})
    return [Delivery(_clean(recipients), "", Format.FIELDS, payload, len(posted.body))]


def _mailgun(posted: Posted, max_bytes: int) -> list[Delivery]:
    if posted.content_type == "application/json" or not posted.form:
        raise NotInbound("a tracking event, not a received message")
    if posted.text("event") not in ("", "inbound"):
        raise NotInbound("a tracking event, not a received message")
    recipients = _addresses([posted.text("recipient")])
    # Mailgun's token is new for every post, a retry too: the message is keyed by its bytes.
    if "body-mime" in posted.form:  # the route forwards to .../inbound_mime/
        return [mime_delivery(recipients, "", posted.form["body-mime"][-1], max_bytes)]
    try:
        headers = json.loads(posted.text("message-headers") or "[]")
    except (ValueError, RecursionError):
        headers = []
    pairs = [(str(pair[0]), str(pair[1])) for pair in headers
             if isinstance(pair, list) and len(pair) == 2] if isinstance(headers, list) else []
    payload = parsed_fields(
        sender=posted.text("from") or posted.text("sender"), subject=posted.text("subject"),
        text=posted.text("body-plain"), html=posted.text("body-html"),
        message_id=posted.text("Message-Id"), headers=pairs)
    return [Delivery(_clean(recipients), "", Format.FIELDS, payload, len(posted.body))]


def _postmark(posted: Posted, max_bytes: int) -> list[Delivery]:
    data = posted.json()
    if not isinstance(data, dict) or data.get("RecordType", "Inbound") != "Inbound":
        raise NotInbound("not an inbound message")
    recipients = _addresses([data.get("OriginalRecipient")])
    event_id = _event("postmark", data.get("MessageID"))
    if isinstance(data.get("RawEmail"), str) and data["RawEmail"]:
        raw = data["RawEmail"].encode("utf-8", "replace")
        return [mime_delivery(recipients, event_id, raw, max_bytes)]
    listed = _list(data, "Headers")
    headers = [(str(h.get("Name", "")), str(h.get("Value", ""))) for h in listed
               if isinstance(h, dict)]
    sender = _dict(data, "FromFull")
    payload = parsed_fields(
        sender=_str(sender, "Email") or _str(data, "From"), subject=_str(data, "Subject"),
        text=_str(data, "TextBody"), html=_str(data, "HtmlBody"),
        message_id=next((v for n, v in headers if n.lower() == "message-id"), ""),
        headers=headers)
    return [Delivery(_clean(recipients), event_id, Format.FIELDS, payload, len(posted.body))]


def sns_control(posted: Posted) -> bool:
    """An Amazon SNS subscription message (anymail's view confirms it; it holds no email)."""
    return str(posted.META.get("HTTP_X_AMZ_SNS_MESSAGE_TYPE", "")) in (
        "SubscriptionConfirmation", "UnsubscribeConfirmation")


def _amazon_ses(posted: Posted, max_bytes: int) -> list[Delivery]:
    notification = posted.json()
    if not isinstance(notification, dict) or notification.get("Type") != "Notification":
        raise NotInbound("not an SNS notification")
    try:
        event = json.loads(str(notification.get("Message") or ""))
    except (ValueError, RecursionError):
        raise NotInbound("an SNS notification of no SES event") from None
    if not isinstance(event, dict) or event.get("notificationType") != "Received":
        raise NotInbound("not a received message")
    receipt = _dict(event, "receipt")
    action = _dict(receipt, "action")
    recipients = _addresses(_list(receipt, "recipients"))
    mail = _dict(event, "mail")
    event_id = _event("amazon_ses", mail.get("messageId"))
    if action.get("type") == "S3":
        location = {"bucket": _str(action, "bucketName"), "key": _str(action, "objectKey")}
        return [Delivery(_clean(recipients), event_id, Format.S3,
                         json.dumps(location).encode(), 0)]
    content = event.get("content")
    if action.get("type") != "SNS" or not isinstance(content, str):
        raise NotInbound("a receipt rule action the webhook does not read")
    raw = (base64.b64decode(content) if action.get("encoding") == "BASE64"
           else content.encode("utf-8", "replace"))
    return [mime_delivery(recipients, event_id, raw, max_bytes)]


def _brevo(posted: Posted, max_bytes: int) -> list[Delivery]:
    data = posted.json()
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise NotInbound("not an inbound post (no items)")
    return [_brevo_item(item, len(posted.body)) for item in items if isinstance(item, dict)]


def _brevo_item(item: Mapping[str, Any], size: int) -> Delivery:
    given = _dict(item, "Headers")
    headers = [(str(name), str(value)) for name, values in given.items()
               for value in (values if isinstance(values, list) else [values])]
    delivered = [value for name, value in headers if name.lower() == "delivered-to"]
    listed = [entry.get("Address") for key in ("To", "Cc") for entry in _list(item, key)
              if isinstance(entry, dict)]
    recipients = _addresses(delivered or listed)
    uuid = item.get("Uuid")
    event_id = _event("brevo", uuid[0]) if isinstance(uuid, list) and uuid else ""
    sender = _dict(item, "From")
    payload = parsed_fields(
        sender=_str(sender, "Address"), subject=_str(item, "Subject"),
        text=_str(item, "RawTextBody"), html=_str(item, "RawHtmlBody"),
        message_id=_str(item, "MessageId"), headers=headers)
    return Delivery(_clean(recipients), event_id, Format.FIELDS, payload, size)


READERS: dict[str, Callable[[Posted, int], list[Delivery]]] = {
    "postmark": _postmark, "mailgun": _mailgun, "amazon_ses": _amazon_ses, "brevo": _brevo,
    "sendgrid": _sendgrid}


def deliveries(provider: str, posted: Posted, max_bytes: int) -> list[Delivery]:
    """The messages of an authenticated post of `provider`; NotInbound when it carries
    none. A raw message over `max_bytes` keeps only its head."""
    try:
        return READERS[provider](posted, max_bytes)
    except NotInbound:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError,
            binascii.Error) as error:
        raise NotInbound(f"an unreadable post ({type(error).__name__})") from None
