"""What an inbound request is worth, decided from its raw bytes before any parsing.

The webhook (and `manage.py inbound`) screens every message first, in time linear in its
size: it must name one of our live reply addresses (else it is dropped unread: a stranger
cannot make the server parse anything), fit INBOUND_MAX_BYTES (a larger one to a live
address gets a short answer saying so, its body never parsed), and declare at most
MAX_MIME_BOUNDARIES multipart boundaries (Python's MIME parser spends time proportional to
the nesting depth on every line, and recurses once per level: a message nested a thousand
deep is refused as malformed, never parsed).

The reply address is looked for anywhere in the bytes: every provider posts the
recipients in clear (a form field, a JSON key, the message's own headers). The exact
recipient is checked again once the message is parsed (`games.inbound.receive`).
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field

from django.conf import settings

from games.models.reply_tokens import TOKEN_BYTES_RE, ReplyToken, live_tokens

MAX_MIME_BOUNDARIES = 20
MAX_CANDIDATES = 10


class Verdict:
    OK = "ok"
    NO_ADDRESS = "no_address"
    TOO_LARGE = "too_large"
    MALFORMED = "malformed"


@dataclass(frozen=True)
class Screening:
    verdict: str
    # The live reply tokens the bytes name, in the order they appear.
    tokens: dict[str, ReplyToken] = field(default_factory=dict)

    @property
    def first(self) -> ReplyToken | None:
        return next(iter(self.tokens.values()), None)


def max_bytes() -> int:
    """The largest message read; never more than Django loads as a request body."""
    return min(int(settings.INBOUND_MAX_BYTES), int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))


def candidate_tokens(raw: bytes) -> list[str]:
    """The reply tokens written anywhere in `raw`, each once, at most MAX_CANDIDATES."""
    found: list[str] = []
    for match in TOKEN_BYTES_RE.finditer(raw):
        token = match.group(1).decode("ascii").lower()
        if token not in found:
            found.append(token)
            if len(found) == MAX_CANDIDATES:
                break
    return found


def boundaries(raw: bytes) -> int:
    """How many multipart boundaries the message declares (also inside an Amazon SES
    notification, whose message is base64 in a JSON field)."""
    count = raw.lower().count(b"boundary=")
    return count + _ses_content(raw).lower().count(b"boundary=")


def _ses_content(raw: bytes) -> bytes:
    if not raw.lstrip().startswith(b"{") or b'"Message"' not in raw:
        return b""
    try:
        outer = json.loads(raw)
        inner = json.loads(outer.get("Message") or "{}") if isinstance(outer, dict) else {}
        content = inner.get("content") if isinstance(inner, dict) else None
        return base64.b64decode(content) if isinstance(content, str) else b""
    except (ValueError, TypeError, binascii.Error):
        return b""


def screen(raw: bytes) -> Screening:
    candidates = candidate_tokens(raw)
    found = live_tokens(candidates)
    live = {token: found[token] for token in candidates if token in found}
    if not live:
        return Screening(Verdict.NO_ADDRESS)
    if len(raw) > max_bytes():
        return Screening(Verdict.TOO_LARGE, live)
    if boundaries(raw) > MAX_MIME_BOUNDARIES:
        return Screening(Verdict.MALFORMED, live)
    return Screening(Verdict.OK, live)
