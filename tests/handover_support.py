"""Helpers for the handover tests: volunteers on standby, offers, links from emails."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.core import mail
from django.test import Client

from games.handover.core.handover_rows import OpenSeat

STANDBY_LINK = re.compile(r"https?://[^\s\"<>]+?(/standby/[A-Za-z0-9_-]{43}/)")
OFFER_LINK = re.compile(r"https?://[^\s\"<>]+?(/seats/offer/[A-Za-z0-9_-]{43}/)")


def link_in_newest(address: str, pattern: re.Pattern[str]) -> str:
    """The path `pattern` finds in the newest email to `address` that has one."""
    for message in reversed(mail.outbox):
        if address in message.to:
            found = pattern.search(str(message.body))
            if found is not None:
                return found.group(1)
    raise AssertionError(f"no such link was emailed to {address}")


def offer_link_to(address: str) -> str:
    return link_in_newest(address, OFFER_LINK)


def sign_up(client: Client, commit: Any, email: str, name: str,
            languages: Sequence[str] = ("en",), rulesets: Sequence[str] = ("base",),
            offers_per_day: int = 3, games: int = 2, *, confirm: bool = True) -> str:
    """Sign `email` up on the standby page (and confirm through the emailed link, as its
    owner would); the path of its private standby link."""
    with commit():
        answer = client.post("/standby/", {
            "email": email, "name": name, "languages": list(languages),
            "rulesets": list(rulesets), "games_at_once": games,
            "offers_per_day": offers_per_day, "time_zone": "Europe/Rome"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    link = link_in_newest(email, STANDBY_LINK)
    if confirm:
        assert client.post(link, {"action": "confirm"}).status_code == 302
    return link


def open_row(seat_id: int) -> OpenSeat:
    return OpenSeat.objects.get(seat_id=seat_id, closed_at__isnull=True)
