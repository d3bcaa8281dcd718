"""The reply's own words, and whether a message is a machine's (then it gets no answer).

Mail programs put the original below (or, rarely, above) the reply: lines quoted with
">", after an attribution line ("On Mon, Ann wrote:", "Il giorno ... ha scritto:",
"Op ... schreef ...:", "El ... escribió:", "Am ... schrieb ...:"), after an
"Original Message" rule or an Outlook header block ("From: ..."). Signatures start at
"-- " (RFC 3676) or a "Sent from my ..." line. We keep what comes before all of these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.html import strip_tags

ATTRIBUTION = re.compile(
    r"^(on\b.*\bwrote:?|il\b.*\bha scritto:?|op\b.*\bschreef\b.*:?|el\b.*\bescribi[oó]:?|"
    r"am\b.*\bschrieb\b.*:?|.*\b(wrote|schreef|schrieb|escribi[oó]|ha scritto):)\s*$",
    re.IGNORECASE)
CUT_LINES = re.compile(
    r"^(-{2,}\s*(original message|messaggio originale|oorspronkelijk bericht|"
    r"mensaje original|urspr[üu]ngliche nachricht)\s*-{2,}|_{5,}|"
    r"(from|da|van|de|von):\s.+|"
    r"(sent from my|inviato da|verzonden vanaf|verzonden met|enviado desde|"
    r"von meinem)\b.*)\s*$", re.IGNORECASE)
SIGNATURE = re.compile(r"^--\s*$")

AUTO_SUBMITTED_OK = {"", "no"}
BULK_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
MACHINE_SENDERS = ("mailer-daemon", "postmaster", "noreply", "no-reply", "auto-reply")


def reply_lines(text: str) -> list[str]:
    """The non-empty lines the player wrote above the quoted original and signature."""
    kept: list[str] = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw.strip()
        if line.startswith(">") or ATTRIBUTION.match(line) or CUT_LINES.match(line) \
                or SIGNATURE.match(raw.rstrip()):
            if kept:
                break
            if line.startswith(">"):
                continue  # a quote above the reply ("top quoting" the other way round)
            break
        if line:
            kept.append(line)
    return kept


def body_text(text: str, html: str) -> str:
    """The plain text part, else the HTML part's text."""
    if text.strip():
        return text
    html = re.sub(r"(?is)<(script|style|blockquote)\b.*?</\1>", "", html)
    html = re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", html)
    return strip_tags(html)


def is_automatic(headers: Iterable[tuple[str, str]], sender: str) -> bool:
    """An auto-reply, a bounce or list mail: answering it could start a mail loop."""
    for name, value in headers:
        name, value = name.lower(), value.strip().lower()
        if name == "auto-submitted" and value not in AUTO_SUBMITTED_OK:
            return True
        if name == "precedence" and value in BULK_PRECEDENCE:
            return True
        if name in ("x-autoreply", "x-autorespond", "x-auto-response-suppress-reply",
                    "list-id", "list-unsubscribe"):
            return True
        if name == "content-type" and "multipart/report" in value:
            return True
        if name == "return-path" and value in ("<>", ""):
            return True
    local = sender.lower().rsplit("@", 1)[0]
    return not sender or any(local.startswith(m) for m in MACHINE_SENDERS)
