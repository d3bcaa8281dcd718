"""Setting up a game on the web page as a host does: post the form, open the link of the
confirmation email, confirm (games.setup.services.web_setup)."""

from __future__ import annotations

import re
from typing import Any

from django.core import mail
from django.test import Client

HOST = "host@example.org"
CONFIRM = re.compile(r"http://127\.0\.0\.1:8000(/new/confirm/[A-Za-z0-9_-]+/)")


def confirm_path(host: str = HOST) -> str:
    """The confirmation link of the newest email to `host`."""
    [letter, *_] = [m for m in reversed(mail.outbox) if m.to == [host]]
    match = CONFIRM.search(str(letter.body))
    assert match, letter.body
    return match.group(1)


def set_up(client: Client, data: dict[str, Any], commit: Any, host: str = HOST) -> Any:
    """POST /new/ with `data` (+ the host's address), then confirm: the confirmation
    page's answer (the invitation links, shown once)."""
    with commit():
        posted = client.post("/new/", {"host_email": host, **data})
    assert posted.status_code == 302, posted.content.decode()[:3000]
    assert posted["Location"] == "/new/sent/"
    path = confirm_path(host)
    assert client.get(path).status_code == 200
    with commit():
        confirmed = client.post(path)
    assert confirmed.status_code == 200
    return confirmed
