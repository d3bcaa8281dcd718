"""When a player leaves, in a real browser on a phone: a volunteer signs up on standby
and confirms through the emailed link, a player asks for someone for their seat, the
volunteer accepts the emailed offer and plays a move through their own emailed link.
The standby, open-seats and offer pages pass the accessibility scan and fit the screen.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.core import mail

from games import engine
from games.game.core.game import Game, Move, WhileOpen
from games.handover.core.handover_rows import OpenSeat
from games.handover.services import opening, takeover
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from tests.browser.conftest import Worker
from tests.browser.shots import shot
from tests.browser.test_pages import (
    CHROMIUM,
    PHONE,
    play_move,
    seat_url,
    serious_violations,
    started_game,
)
from tests.support import choose, seat_move

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


def emailed_path(worker: Worker, address: str, pattern: str) -> str:
    """The path of the newest link matching `pattern` emailed to `address`, once the worker
    has sent everything queued (the email leaves from the worker, after the page answered)."""
    worker.settle()
    for message in reversed(mail.outbox):
        if address in message.to:
            found = re.search(r"http://127\.0\.0\.1:8000(" + pattern + ")", str(message.body))
            if found:
                return found.group(1)
    raise AssertionError(f"no such link was emailed to {address}")


def fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth")
                <= PHONE["viewport"]["width"])  # type: ignore[index]


def test_a_volunteer_signs_up_takes_an_offered_seat_and_plays_on_a_phone(
        browser: Any, live_server: Any, worker: Worker) -> None:
    game = started_game(seed=3)
    Game.objects.filter(pk=game.pk).update(list_open_seats=True)
    page = browser.new_page(**PHONE)
    # Standby: sign up, then confirm through the link emailed to the address.
    page.goto(live_server.url + "/standby/")
    assert serious_violations(page) == [] and fits(page)
    page.fill("#id_email", "vera@example.org")
    page.fill("#id_name", "Vera")
    with page.expect_navigation():
        page.click("form.standby button[type=submit]")
    assert "a link to confirm your standby is on its way" in page.content()
    page.goto(live_server.url + emailed_path(worker, "vera@example.org", r"/standby/[\w-]{43}/"))
    assert serious_violations(page) == []
    with page.expect_navigation():
        page.click("text=Yes, put me on standby")
    assert "You are on standby" in page.content()
    shot(page, "handover-standby.png", full_page=True)
    # Bob cannot go on: he asks for someone from his seat page.
    bob = browser.new_page(**PHONE)
    bob.goto(seat_url(live_server, game, 1))
    shot(bob.locator("#handover"), "handover-seat-box.png")
    with bob.expect_navigation():
        bob.click("text=Find someone for my seat")
    assert "We are looking for someone to take your seat" in bob.content()
    assert serious_violations(bob) == [] and fits(bob)
    shot(bob.locator("#handover"), "handover-seat-box-open.png")
    bob.close()
    page.goto(live_server.url + "/seats/")
    assert serious_violations(page) == [] and fits(page)
    assert page.locator("section.open-seat").count() == 1
    shot(page, "handover-open-seats.png", full_page=True)
    # The offer came by email: Vera opens it and takes the seat.
    offer = emailed_path(worker, "vera@example.org", r"/seats/offer/[\w-]{43}/")
    page.goto(live_server.url + offer)
    assert serious_violations(page) == [] and fits(page)
    assert page.input_value("#id_name") == "Vera"
    shot(page, "handover-offer.png", full_page=True)
    with page.expect_navigation():
        page.click("text=Take over this seat")
    assert "Seat 2 is yours" in page.content() and "/play/" not in page.content()
    # Ann moves; then it is Vera's turn, through the own link her email brought.
    state = Game.objects.get(pk=game.pk).state()
    move = choose(engine.legal_moves(state), random.Random(1))
    seat_move(game.seats.get(number=0), 0, move)
    page.goto(live_server.url + emailed_path(worker, "vera@example.org", r"/play/[\w-]{43}/"))
    assert "Vera took over seat 2 from Bob" in page.content()
    select = page.locator("form.card-form select").first
    select.select_option(select.locator("option").nth(1).get_attribute("value"))
    play_move(page, page.locator("form.card-form").first.locator("button[type=submit]"))
    shot(page, "handover-played.png", full_page=True)
    made = Move.objects.get(game=game, number=2)
    assert made.seat_number == 1 and made.actor_kind == Move.Actor.SEAT
    page.close()


def a_pass(game: Game) -> Any:
    state = Game.objects.get(pk=game.pk).state()
    return next(m for m in engine.legal_moves(state) if m["type"] == "pass")


@pytest.mark.parametrize("device", [PHONE], ids=["phone"])
def test_the_log_after_a_takeover_names_who_played_each_move(browser: Any, live_server: Any,
                                                             device: dict[str, Any]) -> None:
    """Issue 39, item 1: Bob moves and talks, leaves, Vera takes the seat over and plays;
    the log and the table talk keep Bob's name on Bob's lines, on Vera's page and Ann's."""
    game = started_game(seed=3)
    Game.objects.filter(pk=game.pk).update(while_seat_open=WhileOpen.WAIT)
    seat_move(game.seats.get(number=0), 0, a_pass(game))
    seat_move(game.seats.get(number=1), 1, a_pass(game))
    services.post_message(Seat.objects.get(game=game, number=1), "I have to go, sorry!")
    opening.open_seat(game.seats.get(number=1).pk)
    row = OpenSeat.objects.get(game=game, closed_at__isnull=True)
    takeover.take_over(row.pk, takeover.Newcomer(name="Vera", email="vera@example.org",
                                                 language="en"))
    seat_move(game.seats.get(number=2), 2, a_pass(game))
    seat_move(game.seats.get(number=0), 3, a_pass(game))
    seat_move(game.seats.get(number=1), 4, a_pass(game))
    services.post_message(Seat.objects.get(game=game, number=1), "Hello from Vera")
    page = browser.new_page(**device)
    for url in (seat_url(live_server, game, 1), seat_url(live_server, game, 0)):
        page.goto(url)
        lines = page.locator("#log li").all_inner_texts()
        moves = {int(m.group(1)): m.group(2) for line in lines
                 if (m := re.match(r"Move (\d+): (.*)", line.strip()))}
        assert moves[2].startswith("Bob passed") and moves[5].startswith("Vera passed")
        assert any("Vera took over seat 2 from Bob" in line for line in lines)
        # The lines, not the mark where the unread ones begin (games.talk.services.reading).
        talk = page.locator("#talk-messages li:not(.unread-from)").all_inner_texts()
        assert talk[0].startswith("Bob ") and "I have to go, sorry!" in talk[0]
        assert talk[1].startswith("Vera ") and "Hello from Vera" in talk[1]
    shot(page.locator("#log"), "handover-history-phone.png")
    page.close()
