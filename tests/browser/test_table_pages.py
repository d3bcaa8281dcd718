"""Three strangers in three browsers: each asks /me/ for a home, confirms the address by
the emailed link, and finds a table of three from the new home; the third completes the
table, the game starts, and each mailbox receives its own seat link and nobody else's,
which opens that player's seat. The home and /tables/ pass the accessibility scan and fit
a phone.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail

from games.game.core.game import Game
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.tables.core.table_rows import OpenTable
from tests.browser.shots import shot
from tests.browser.test_pages import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    serious_violations,
)

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]
CONFIRM = re.compile(r"https?://[^/\s]+(/me/new/[A-Za-z0-9_-]{43}/)")
SEAT = re.compile(r"https?://[^/\s]+(/play/[A-Za-z0-9_-]{43}/)")


def emailed(address: str, pattern: re.Pattern[str]) -> list[str]:
    return [found for m in mail.outbox if m.to == [address]
            for found in pattern.findall(str(m.body))]


def test_three_homes_find_one_table_and_each_gets_only_their_own_link(
        browser: Any, live_server: Any, worker: Any) -> None:
    people = ["ada@example.org", "bo@example.org", "cy@example.org"]
    contexts = [browser.new_context(**(PHONE if n == 0 else DESKTOP)) for n in range(3)]
    pages = [context.new_page() for context in contexts]
    for page, address in zip(pages, people, strict=True):
        page.goto(f"{live_server.url}/")
        with page.expect_navigation():
            page.locator("#find-a-table").click()
        assert page.locator("h1").inner_text() == "Open tables"
        page.fill("input[name=email]", address)
        with page.expect_navigation():
            page.locator("#get-home button[type=submit]").click()
        worker.settle()
        [confirm] = emailed(address, CONFIRM)
        page.goto(live_server.url + confirm)
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        assert "/me/" in page.url and "Find me a table" in page.content()
    for n, page in enumerate(pages):
        form = page.locator("#find-table")
        form.locator("input[name=players]").fill("3")
        form.locator("input[name=rated]").check()
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        worker.settle()
        notice = page.locator("#what-happened").inner_text()
        assert ("has started" in notice) if n == 2 else (f"{n + 1} of 3 players" in notice)
    table = OpenTable.objects.get()
    assert table.status == OpenTable.Status.STARTED and table.game is not None
    game = Game.objects.get(pk=table.game.pk)
    assert game.status == Game.Status.ACTIVE and game.rated
    for page, address in zip(pages, people, strict=True):
        own = SEAT.search(link_for(Seat.objects.get(game=game, email=address)))
        links = set(emailed(address, SEAT))
        assert own is not None and links == {own.group(1)}  # theirs, nobody else's
        page.goto(live_server.url + links.pop())
        assert "Open table" in page.locator("h1").inner_text()
    phone = pages[0]
    phone.goto(f"{live_server.url}/tables/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert serious_violations(phone) == []
    for context in contexts:
        context.close()


def test_the_home_with_tables_passes_the_scan_on_a_phone(browser: Any, live_server: Any,
                                                        client: Any) -> None:
    from games.people.core.home_links import home_token
    token = home_token("solo@example.org")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/me/{token}/")
    form = page.locator("#find-table")
    form.locator("input[name=players]").fill("4-5")
    form.locator("input[name=bots_fill]").check()
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert "1 of 4 players" in page.locator("#what-happened").inner_text()
    assert page.locator("#tables .open-tables li").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert serious_violations(page) == []
    context.close()


@pytest.mark.parametrize("device", [PHONE], ids=["phone"])
def test_a_game_found_at_an_open_table_reads_as_one(browser: Any, live_server: Any,
                                                    worker: Any, device: dict[str, Any]) -> None:
    """Its seat page names it in the player's language and says it was found together;
    the leave box says what happens meanwhile, not what a host chose."""
    from games.setup.core.player_defaults import remember_preferences
    from games.tables.core import wishes
    from games.tables.services import forming

    people = ["ada@example.org", "gia@example.org", "cy@example.org"]
    remember_preferences("gia@example.org", "it", "Europe/Rome")
    wish = wishes.read_wish({"ruleset": "base", "players": 3, "hours_per_move": 24,
                             "language": "en", "rated": True, "bots_fill": False},
                            language="en")
    for address in people:
        forming.find_table(address, wish)
    worker.settle()
    table = OpenTable.objects.get()
    assert table.game is not None
    context = browser.new_context(**device)
    page = context.new_page()
    seat = Seat.objects.get(game=table.game, email="gia@example.org")
    page.goto(link_for(seat).replace("http://127.0.0.1:8000", live_server.url))
    assert page.locator("h1").inner_text() == f"Tavolo aperto {table.pk}"
    found = page.locator("p.found-together")
    assert found.is_visible() and found.inner_text() == (
        "Tu e gli altri giocatori avete trovato insieme questa partita a un tavolo aperto.")
    leave = page.locator("#handover .hint").first.inner_text()
    assert "intanto lo gioca un bot" in leave and "creata" not in leave
    width = device["viewport"]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page.locator("main"), f"open-table-seat-{width}.png")
    context.close()
