"""A rendered letter made into an email: headers, inlined CSS, unsubscribe link.

Every player email carries
- a Message-ID on our own domain (EMAIL_DOMAIN, else SITE_URL's host), stable for
  one Notification so a retried send is recognisably the same message;
- `List-Unsubscribe` (our one-click unsubscribe page) with
  `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058), which the big
  mailbox providers require for automated mail;
- `Auto-Submitted: auto-generated` so vacation responders stay quiet.
Provider click and open tracking is switched off (anymail's normalised options):
click tracking would route the private seat link through the provider's redirector.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

import css_inline
from anymail.message import AnymailMessage
from django.conf import settings
from django.core import signing
from django.urls import reverse

from games.mail.core.notifications import Notification

UNSUBSCRIBE_SALT = "games.emails.unsubscribe"


@dataclass(frozen=True)
class Letter:
    """What one email says: its subject and both bodies (HTML not yet inlined)."""

    subject: str
    text: str
    html: str
    reply_to: str = ""  # turn emails: play+<token>@INBOUND_DOMAIN (moves by email)
    # Threading an answer under the player's reply: In-Reply-To and References.
    in_reply_to: str = ""


class Skip(Exception):
    """This email should not go out any more; the reason is recorded on the row."""


def email_domain() -> str:
    configured = str(getattr(settings, "EMAIL_DOMAIN", "") or "")
    return configured or urlsplit(settings.SITE_URL).hostname or "localhost"


def message_id_for(notification: Notification) -> str:
    digest = hashlib.sha256(notification.key.encode()).hexdigest()[:16]
    return f"<saboteur.{notification.pk}.{digest}@{email_domain()}>"


def _signed(data: dict[str, object]) -> str:
    """Signed with LINK_KEY, like every private link (games.seats.core.links): a new
    SECRET_KEY leaves the links in the emails already sent working."""
    return signing.dumps(data, key=settings.LINK_KEY, salt=UNSUBSCRIBE_SALT)


def unsubscribe_token(notification: Notification) -> str | None:
    """A signed token that can only stop emails: for a seat, or for a digest's address."""
    if notification.kind in (Notification.Kind.STANDBY, Notification.Kind.SEAT_OFFER):
        # Stops every offer of a seat to this mailbox (games.handover.services.standby).
        return _signed({"m": str(notification.params.get("mailbox", ""))})
    if notification.kind == Notification.Kind.DIGEST:
        # Every digest seat of this person (games.people.core.mailboxes: by mailbox key).
        return _signed({"e": notification.to_email})
    if notification.seat_id is not None:
        return _signed({"s": notification.seat_id})
    return None


def read_unsubscribe_token(token: str) -> dict[str, object] | None:
    """The token's data, if LINK_KEY or one of its fallbacks signed it (or, for the
    emails sent before the link key signed them, SECRET_KEY or one of its fallbacks)."""
    older = [*settings.LINK_KEY_FALLBACKS, settings.SECRET_KEY,
             *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    try:
        data = signing.loads(token, key=settings.LINK_KEY, fallback_keys=older,
                             salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return data if isinstance(data, dict) else None


def unsubscribe_url(notification: Notification) -> str | None:
    token = unsubscribe_token(notification)
    if token is None:
        return None
    return settings.SITE_URL + reverse("games:unsubscribe", args=[token])


@cache
def _inliner() -> css_inline.CSSInliner:
    # Never fetch anything while sending: all CSS is in the template.
    return css_inline.CSSInliner(load_remote_stylesheets=False)


def inline_css(html: str) -> str:
    return str(_inliner().inline(html))


def build(notification: Notification, letter: Letter) -> AnymailMessage:
    """The email for `notification`, ready for Django's (or anymail's) backend."""
    headers = {
        "Message-ID": message_id_for(notification),
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
    }
    if letter.in_reply_to:
        headers["In-Reply-To"] = headers["References"] = letter.in_reply_to
    unsubscribe = unsubscribe_url(notification)
    if unsubscribe is not None:
        headers["List-Unsubscribe"] = f"<{unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    # anymail's message: its normalised options (ignored by Django's own backends).
    message = AnymailMessage(
        subject=letter.subject, body=letter.text, from_email=settings.DEFAULT_FROM_EMAIL,
        to=[notification.to_email], headers=headers,
        reply_to=[letter.reply_to] if letter.reply_to else None,
        track_clicks=False, track_opens=False, tags=[notification.kind],
        metadata={"notification": str(notification.pk)},
    )
    message.attach_alternative(inline_css(letter.html), "text/html")
    return message
