"""The clock where people meet it: the setup page and creategame (a bank, days off, and
their bad input refused with nothing created), the seat page, the API's `clock` and the
turn email's "left on your clock"."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client

from games.clock.core.clock_setup import clock_settings
from games.game.core.game import Game
from tests.setup_support import set_up
from tests.support import START, make_game
from tests.web.test_setup_per_player import table

pytestmark = pytest.mark.django_db


def test_the_setup_page_sets_a_bank_and_days_off(client: Client, commit: Any) -> None:
    page = client.get("/new/").content.decode()
    assert 'name="bank_hours"' in page and 'value="sat"' in page
    set_up(client, table(bank_hours=72, increment_hours=24, bank_max_hours=120,
                         days_off=["sat", "sun"], dates_off="2026-12-25"), commit)
    game = Game.objects.get()
    assert (game.bank_hours, game.increment_hours, game.bank_max_hours) == (72, 24, 120)
    assert game.weekdays_off == [5, 6] and game.dates_off == ["2026-12-25"]


@pytest.mark.parametrize("bad", [
    {"bank_hours": -3}, {"days_off": ["sat", "funday"]}, {"bank_hours": 24, "bank_max_hours": 2},
    {"dates_off": "Christmas"}, {"increment_hours": 5},
])
def test_bad_clock_choices_get_a_400_and_create_nothing(client: Client, bad: dict[str, Any],
                                                        commit: Any) -> None:
    with commit():
        answer = client.post("/new/", {"host_email": "host@example.org", **table(**bad)})
    assert answer.status_code == 400
    assert 'role="alert"' in answer.content.decode() or "errorlist" in answer.content.decode()
    assert not Game.objects.exists() and not mail.outbox


def creategame(*args: str) -> str:
    out = io.StringIO()
    call_command("creategame", "--name", "Slow", "--player", "Ann <ann@example.com>",
                 "--player", "Bob <bob@example.com>", "--player", "Cy <cy@example.com>",
                 *args, stdout=out)
    return out.getvalue()


def test_creategame_takes_a_bank_and_days_off() -> None:
    creategame("--bank-hours", "72", "--increment-hours", "24", "--bank-max-hours", "120",
               "--days-off", "sat,sun", "--date-off", "2026-12-25")
    game = Game.objects.get()
    assert (game.bank_hours, game.increment_hours, game.bank_max_hours) == (72, 24, 120)
    assert game.weekdays_off == [5, 6] and game.dates_off == ["2026-12-25"]


@pytest.mark.parametrize(("args", "words"), [
    (["--bank-hours", "-1"], "between 1 and"),
    (["--days-off", "sat,funday"], "Unknown weekday funday"),
    (["--bank-hours", "10", "--bank-max-hours", "5"], "cap cannot be less"),
])
def test_creategame_refuses_a_bad_clock(args: list[str], words: str) -> None:
    with pytest.raises(CommandError, match=words):
        creategame(*args)
    assert not Game.objects.exists()


def test_the_seat_page_the_api_and_the_turn_email_show_the_banks(client: Client, clock: Any,
                                                                 commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True, clock=clock_settings(
            bank_hours=52, increment_hours=24, bank_max_hours=96, days_off="sat,sun"))
    turn = next(m for m in mail.outbox if m.to == ["p0@example.com"] and "turn" in m.subject)
    assert "You have 2 days, 4 hours left on your clock" in turn.body
    page = client.get(g.page(1)).content.decode()
    assert "A time bank of 2 days, 4 hours per seat, plus 1 day per move, up to 4 days." in page
    assert "Time banks:" in page and "Player0 2 days, 4 hours" in page
    assert "No clock runs on Saturday, Sunday" in page
    answer = client.get(g.api(1)).json()["clock"]
    assert answer["mode"] == "bank" and answer["remaining_seconds"] == 52 * 3600
    assert answer["banks"] == {"0": 52 * 3600, "1": 52 * 3600, "2": 52 * 3600}
    assert answer["weekdays_off"] == ["sat", "sun"]
    deadline = g.refresh().deadline_at
    assert deadline is not None and answer["deadline"] == deadline.isoformat()
    clock.move_to(START.replace(hour=19))  # 10 hours later, the same Monday
    assert client.get(g.api(0)).json()["clock"]["remaining_seconds"] == 42 * 3600
    assert client.get(g.api(2)).json()["clock"]["banks"]["0"] == 42 * 3600
