"""Tournaments in the browser: a player joins from their home by keyboard alone (Tab to
the button, Enter), the home names the event they are in, and /tournaments/ and an
event's page with its standings pass the accessibility scan and fit a phone and a
desktop; so do the host's edit page and the "are you sure?" of their cancel, which the
keyboard answers (tick the box with Space, then the button).

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.tournaments.core.event_rows import Entry
from games.tournaments.services import entries
from tests.browser.test_pages import CHROMIUM, DESKTOP, PHONE, serious_violations
from tests.tournaments.support import event

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_join_by_keyboard_and_the_pages_pass_the_scan(browser: Any, live_server: Any,
                                                      device: dict[str, Any]) -> None:
    from django.utils import timezone

    from games.people.core.home_links import home_token

    cup = event(name="Winter cup", signup_closes=timezone.now() + timedelta(days=3))
    for n in range(3):
        entries.join_event(f"other{n}@example.org", cup.pk)
    token = home_token("solo@example.org")
    context = browser.new_context(**device)
    page = context.new_page()
    page.goto(f"{live_server.url}/me/{token}/")
    button = page.get_by_role("button", name="Join Winter cup")
    button.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "You are in tournament" in page.locator("#what-happened").inner_text()
    assert Entry.objects.filter(tournament=cup).count() == 4
    mine = page.locator("#tournaments .events li").first
    # Told in words, not colour: the event's state and the player's way out.
    assert "Sign-up closes" in mine.inner_text()
    assert page.get_by_role("button", name="Leave Winter cup").count() == 1
    width = device["viewport"]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for path in ("/tournaments/", f"/tournaments/{cup.pk}/"):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert serious_violations(page) == []
    assert page.get_by_role("table").count() == 1  # the standings, with headers
    context.close()


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_hosts_edit_and_cancel_pages_pass_the_scan(browser: Any, live_server: Any,
                                                       device: dict[str, Any]) -> None:
    from games.people.core.home_links import home_token
    from games.tournaments.core.event_rows import Tournament

    cup = event(name="Winter cup")
    cup.host_email = "host@example.org"
    cup.save(update_fields=["host_email", "host_mailbox"])
    entries.join_event("other0@example.org", cup.pk)
    token = home_token("host@example.org")
    context = browser.new_context(**device)
    page = context.new_page()
    width = device["viewport"]["width"]
    page.goto(f"{live_server.url}/me/{token}/tournaments/{cup.pk}/edit")
    assert page.get_by_label("Name of the tournament").input_value() == "Winter cup"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert serious_violations(page) == []
    page.goto(f"{live_server.url}/me/{token}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Cancel this tournament: Winter cup").click()
    assert "Cancel the tournament “Winter cup”?" in page.locator("h1").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert serious_violations(page) == []
    box = page.get_by_label("Yes, cancel this tournament for everyone")
    box.focus()
    page.keyboard.press("Space")
    assert box.is_checked()
    with page.expect_navigation():
        page.get_by_role("button", name="Cancel this tournament").press("Enter")
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.CANCELLED
    context.close()
