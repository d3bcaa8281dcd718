"""The embedded default's email: every message is a file in EMAIL_FILE_PATH (var/mail).

`OutboxBackend` writes one `.eml` per message (Django's file backend appends all the
messages of a connection to one log file, which nobody can open in a mail program).
In debug, the outbox page (games.site.outbox_pages) lists the files and shows each one's
HTML part, so a person can click a seat link in it.
"""

from __future__ import annotations

import email
import email.policy
import itertools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage as ParsedEmail
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage

NAME_RE = re.compile(r"^[0-9]{8}T[0-9]{12}-[0-9]+-[a-z0-9-]{0,40}\.eml$")
_counter = itertools.count(1)


def outbox_dir() -> Path:
    return Path(getattr(settings, "EMAIL_FILE_PATH", "") or settings.BASE_DIR / "var" / "mail")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


class OutboxBackend(BaseEmailBackend):
    """Write each message to its own .eml file (atomically: readers never see half)."""

    def __init__(self, file_path: str | None = None, *, fail_silently: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(fail_silently=fail_silently, **kwargs)
        self.directory = Path(file_path) if file_path else outbox_dir()

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        self.directory.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
            name = f"{stamp}-{os.getpid()}{next(_counter)}-{_slug(str(message.subject))}.eml"
            temporary = self.directory / f".{name}.tmp"
            temporary.write_bytes(message.message().as_bytes())
            temporary.replace(self.directory / name)
            sent += 1
        return sent


@dataclass(frozen=True)
class OutboxEntry:
    name: str
    subject: str
    to: str
    date: str
    reply_to: str = ""  # turn emails: the moves-by-email address (the reply box uses it)


def parse(path: Path) -> ParsedEmail:
    with path.open("rb") as handle:
        message = email.message_from_binary_file(handle, policy=email.policy.default)
    assert isinstance(message, ParsedEmail)
    return message


def entries(limit: int = 200) -> list[OutboxEntry]:
    """The newest messages first."""
    directory = outbox_dir()
    if not directory.is_dir():
        return []
    names = sorted((p.name for p in directory.iterdir() if NAME_RE.match(p.name)),
                   reverse=True)[:limit]
    found = []
    for name in names:
        message = parse(directory / name)
        found.append(OutboxEntry(name=name, subject=str(message["Subject"] or ""),
                                 to=str(message["To"] or ""), date=str(message["Date"] or ""),
                                 reply_to=str(message["Reply-To"] or "")))
    return found


def find(name: str) -> ParsedEmail | None:
    """The message file `name` (validated: no path can be smuggled in), or None."""
    if not NAME_RE.match(name):
        return None
    path = outbox_dir() / name
    return parse(path) if path.is_file() else None


def part(message: ParsedEmail, subtype: str) -> str:
    body = message.get_body(preferencelist=(subtype,))
    if body is None:
        return ""
    assert isinstance(body, ParsedEmail)
    return str(body.get_content())
