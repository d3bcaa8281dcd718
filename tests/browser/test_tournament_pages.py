"""Tournaments in the browser: a player joins from their home by keyboard alone (Tab to
the button, Enter), the home names the event they are in, and /tournaments/ and an
event's page with its standings pass the accessibility scan and fit a phone and a
desktop; so do the host's edit page and the "are you sure?" of their cancel, which the
keyboard answers (tick the box with Space, then the button). And a whole event: nine
homes in three browsers join, find each round's game on their homes and move from its
page, and read the standings.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest

from games.tournaments.core.event_rows import Entry
from games.tournaments.services import entries
from tests.browser.test_pages import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    play_move,
    serious_violations,
)
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


def test_nine_homes_in_three_browsers_play_an_event_to_its_standings(
        browser: Any, live_server: Any, worker: Any) -> None:
    """Nine people, three to a browser (a desktop, a phone, a desktop), join an event of
    three rounds at tables of three from their homes; each round every home lists one
    game of that round, and whoever it lists on turn opens that game's page and makes a
    move from it; the tables are then played out (engine moves, as in tests/tournaments) and
    the next round is paired. The event's page then shows all nine in the standings, in
    every browser, with no address."""
    from django.utils import timezone

    from games.people.core.home_links import home_token
    from games.tournaments.core.event_rows import EventTable, Tournament
    from games.tournaments.services import pairing_rounds
    from tests.tournaments.support import finish

    cup = event(name="Spring cup", players=3, rounds=3, cap=9,
                signup_closes=timezone.now() + timedelta(days=3))
    people = [[f"p{c}{n}@example.org" for n in range(3)] for c in range(3)]
    home_of = {address: f"{live_server.url}/me/{home_token(address)}/"
               for addresses in people for address in addresses}
    pages = []
    for device, addresses in zip((DESKTOP, PHONE, DESKTOP), people, strict=True):
        page = browser.new_context(**device).new_page()
        pages.append(page)
        for address in addresses:
            page.goto(home_of[address])
            with page.expect_navigation():
                page.get_by_role("button", name="Join Spring cup").click()
            assert "You are in tournament" in page.locator("#what-happened").inner_text()
    assert Entry.objects.filter(tournament=cup).count() == 9
    # Sign-up closes, and the beat's sweep (called here, not waited for) starts the event.
    Tournament.objects.filter(pk=cup.pk).update(signup_closes_at=timezone.now())
    moved = 0
    for number in (1, 2, 3):
        pairing_rounds.sweep_tournaments()
        for page, addresses in zip(pages, people, strict=True):
            for address in addresses:
                page.goto(home_of[address])
                games = page.locator(".home-group a", has_text=f"Spring cup: {number}.")
                assert games.count() == 1, address
                on_turn = page.locator("#your-turn a", has_text=f"Spring cup: {number}.")
                if on_turn.count() == 1:  # their game's page, and a move from it
                    page.goto(live_server.url + on_turn.get_attribute("href"))
                    assert f"Spring cup: {number}." in page.locator("h1").inner_text()
                    form = page.locator("form.card-form").first
                    form.locator("select").select_option(index=1)  # after "choose…"
                    me = re.search(r"You are (.+?), seat", page.locator("main").inner_text())
                    assert me is not None
                    play_move(page, form.get_by_role("button", name="Play"))
                    told = page.locator("#what-happened").inner_text()
                    assert told.startswith(f"{me.group(1)} "), told  # "Player 2 placed …"
                    moved += 1
        worker.settle()
        tables = EventTable.objects.filter(event_round__tournament=cup,
                                           event_round__number=number)
        assert tables.count() == 3
        for seed, table in enumerate(tables):
            assert table.game is not None and table.game.version > 0  # a move from a page
            finish(table.game, seed)
    pairing_rounds.sweep_tournaments()
    assert moved >= 9
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.FINISHED
    for page in pages:
        page.goto(f"{live_server.url}/tournaments/{cup.pk}/")
        rows = page.locator("#standings tbody tr")
        assert rows.count() == 9
        assert rows.first.locator("td").first.inner_text() == "1"
        assert all(row.locator("td").last.inner_text() == "3" for row in rows.all())
        assert "@example.org" not in page.content()
    assert serious_violations(pages[1]) == []
    for page in pages:
        page.context.close()
