"""A field for the reader's own email address says so (autocomplete="email", WCAG 1.3.5:
a browser or an assistive tool may fill it in); a field for someone else's address (the
setup page's players) does not."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def email_fields(body: str) -> dict[str, str]:
    """Each email input's name and its autocomplete value ("" when none)."""
    fields = {}
    for tag in re.findall(r"<input [^>]*type=\"email\"[^>]*>", body):
        name = re.search(r'name="([^"]+)"', tag)
        purpose = re.search(r'autocomplete="([^"]*)"', tag)
        fields[name.group(1) if name else ""] = purpose.group(1) if purpose else ""
    return fields


@pytest.mark.parametrize("path", ["/me/", "/standby/", "/tables/"])
def test_the_readers_own_address_is_marked_for_autofill(client: Client, path: str) -> None:
    fields = email_fields(client.get(path).content.decode())
    assert fields and set(fields.values()) == {"email"}, fields


def test_the_setup_page_marks_the_hosts_address_and_not_the_players(client: Client) -> None:
    fields = email_fields(client.get("/new/").content.decode())
    assert fields.pop("host_email") == "email"
    assert fields and set(fields.values()) == {"off"}
