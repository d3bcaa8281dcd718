"""Posts to the inbound webhook as each provider makes them (Postmark, Mailgun, Amazon SES,
Brevo, SendGrid), with the credentials the tests configure: the shapes of the providers'
documentation and of anymail's own tests."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.test import Client, override_settings

SECRET = "hook:s3cret"
AUTH = "Basic " + base64.b64encode(SECRET.encode()).decode()
MAILGUN_KEY = "mailgun-signing-key"


@contextmanager
def webhook_settings(**extra: Any) -> Iterator[None]:
    """The webhook's secret (and Mailgun's signing key), as production sets them."""
    from django.conf import settings

    anymail = {**getattr(settings, "ANYMAIL", {}), "WEBHOOK_SECRET": SECRET,
               "MAILGUN_WEBHOOK_SIGNING_KEY": MAILGUN_KEY, **extra}
    with override_settings(ANYMAIL=anymail):
        yield


def form(fields: dict[str, bytes | str], boundary: str = "formboundary1234") -> tuple[bytes,
                                                                                      str]:
    """A multipart/form-data body and its content type."""
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
        + (value if isinstance(value, bytes) else value.encode()) + b"\r\n"
        for name, value in fields.items()) + f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def _post_form(client: Client, url: str, fields: dict[str, bytes | str],
               auth: str | None = AUTH) -> Any:
    body, content_type = form(fields)
    extra: dict[str, Any] = {"HTTP_AUTHORIZATION": auth} if auth else {}
    return client.post(url, data=body, content_type=content_type, **extra)


def _post_json(client: Client, url: str, data: Any, auth: str | None = AUTH,
               **headers: str) -> Any:
    extra: dict[str, Any] = {**headers, **({"HTTP_AUTHORIZATION": auth} if auth else {})}
    return client.post(url, json.dumps(data), content_type="application/json", **extra)


# ---- SendGrid: Inbound Parse --------------------------------------------------------------


def sendgrid_raw(client: Client, raw: bytes, recipient: str, *, header_to: str = "",
                 auth: str | None = AUTH) -> Any:
    """"POST the raw, full MIME message": the message as `email`, the envelope as JSON."""
    return _post_form(client, "/anymail/sendgrid/inbound/", {
        "to": header_to or recipient, "from": "p0@example.com",
        "envelope": json.dumps({"to": [recipient], "from": "p0@example.com"}),
        "email": raw}, auth)


def sendgrid_parsed(client: Client, recipient: str, text: str, *,
                    subject: str = "Re: your turn", charset: str = "utf-8") -> Any:
    """The default Inbound Parse: SendGrid's parsed fields, each in its charset."""
    return _post_form(client, "/anymail/sendgrid/inbound/", {
        "headers": f"From: Ann <p0@example.com>\r\nTo: {recipient}\r\nSubject: {subject}\r\n"
                   "Message-ID: <sg-1@mail.example.com>\r\n",
        "from": "Ann <p0@example.com>", "to": recipient, "subject": subject,
        "text": text.encode(charset), "envelope": json.dumps({"to": [recipient]}),
        "charsets": json.dumps({"to": "UTF-8", "from": "UTF-8", "subject": "UTF-8",
                                "text": charset})})


# ---- Mailgun: a route forwarding to the webhook -------------------------------------------


def _mailgun_signature(key: str = MAILGUN_KEY) -> dict[str, str]:
    timestamp, token = "1760000000", "a" * 50
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(),
                         hashlib.sha256).hexdigest()
    return {"timestamp": timestamp, "token": token, "signature": signature}


def mailgun_mime(client: Client, raw: bytes, recipient: str, *,
                 key: str = MAILGUN_KEY) -> Any:
    """forward(".../inbound_mime/"): the raw message as `body-mime`."""
    return _post_form(client, "/anymail/mailgun/inbound_mime/", {
        "recipient": recipient, "sender": "p0@example.com", "body-mime": raw,
        **_mailgun_signature(key)})


def mailgun_parsed(client: Client, recipient: str, text: str,
                   subject: str = "Re: your turn") -> Any:
    """forward(".../inbound/"): Mailgun's parsed fields."""
    return _post_form(client, "/anymail/mailgun/inbound/", {
        "recipient": recipient, "sender": "p0@example.com", "from": "Ann <p0@example.com>",
        "subject": subject, "body-plain": text, "Message-Id": "<mg-1@mail.example.com>",
        "message-headers": json.dumps([["From", "Ann <p0@example.com>"],
                                       ["Subject", subject]]),
        **_mailgun_signature()})


# ---- Postmark: the inbound message stream's webhook ---------------------------------------


def postmark_fields(client: Client, recipient: str, text: str, *,
                    subject: str = "Re: your turn", message_id: str = "pm-1",
                    headers: list[dict[str, str]] | None = None,
                    auth: str | None = AUTH) -> Any:
    return _post_json(client, "/anymail/postmark/inbound/", {
        "FromFull": {"Email": "p0@example.com", "Name": "Ann"},
        "ToFull": [{"Email": recipient, "Name": ""}], "OriginalRecipient": recipient,
        "Subject": subject, "MessageID": message_id, "TextBody": text,
        "Headers": headers or [{"Name": "Message-ID", "Value": f"<{message_id}@x.example>"}]},
        auth)


def postmark_raw(client: Client, raw: bytes, recipient: str) -> Any:
    """With "Include raw email content in JSON payload" ticked."""
    return _post_json(client, "/anymail/postmark/inbound/", {
        "FromFull": {"Email": "p0@example.com"}, "OriginalRecipient": recipient,
        "MessageID": "pm-raw", "RawEmail": raw.decode("utf-8", "replace")})


# ---- Amazon SES: a receipt rule publishing to SNS -----------------------------------------


def ses_notification(client: Client, recipient: str, *, raw: bytes | None = None,
                     s3: tuple[str, str] | None = None, message_id: str = "ses-1") -> Any:
    action: dict[str, str] = ({"type": "S3", "bucketName": s3[0], "objectKey": s3[1]}
                              if s3 else {"type": "SNS", "encoding": "BASE64"})
    event: dict[str, Any] = {
        "notificationType": "Received",
        "mail": {"messageId": message_id, "source": "p0@example.com"},
        "receipt": {"recipients": [recipient], "action": action}}
    if raw is not None:
        event["content"] = base64.b64encode(raw).decode()
    sns = {"Type": "Notification", "MessageId": "sns-" + message_id,
           "TopicArn": "arn:aws:sns:eu-west-1:1:inbound", "Message": json.dumps(event)}
    return _post_json(client, "/anymail/amazon_ses/inbound/", sns,
                      HTTP_X_AMZ_SNS_MESSAGE_TYPE="Notification",
                      HTTP_X_AMZ_SNS_MESSAGE_ID="sns-" + message_id)


# ---- Brevo: an inbound webhook (parsed messages only) -------------------------------------


def brevo(client: Client, recipient: str, text: str, *, uuid: str = "bv-1",
          subject: str = "Re: your turn") -> Any:
    item = {"Uuid": [uuid], "MessageId": f"<{uuid}@mail.example.com>",
            "From": {"Name": "Ann", "Address": "p0@example.com"},
            "To": [{"Name": None, "Address": recipient}], "Subject": subject,
            "Headers": {"Message-ID": f"<{uuid}@mail.example.com>", "Subject": subject,
                        "From": "Ann <p0@example.com>", "To": recipient},
            "RawTextBody": text, "RawHtmlBody": ""}
    return _post_json(client, "/anymail/brevo/inbound/", {"items": [item]})
