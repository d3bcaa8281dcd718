"""The clock presets (games.clock.core.clock_presets), one list for the setup page, open
tables, tournaments and challenges; and /tables/'s count of the tables waiting per
language and pace."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from games.clock.core.clock_presets import NAMES, PRESETS, preset_named
from games.game.core.game import Game
from games.people.core.home_links import home_link
from games.tables.core.table_rows import OpenTable
from games.tournaments.core.event_rows import Tournament
from games.tournaments.core.event_settings import TournamentError, read_settings
from games.tournaments.services.event_list import listed
from tests.setup_support import set_up
from tests.support import token_of
from tests.web.test_setup_per_player import table

pytestmark = pytest.mark.django_db


def options(page: str, name: str) -> list[str]:
    """The values of a <select name=...>'s options, in order."""
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, name
    return re.findall(r'<option value="([^"]*)"', select.group(1))


def test_every_form_offers_the_same_presets(client: Client) -> None:
    setup = client.get("/new/").content.decode()
    home = client.get(f"/me/{token_of(home_link('ann@example.org'))}/").content.decode()
    assert options(setup, "clock_preset") == ["", *NAMES]
    assert options(home, "clock")[1:] == list(NAMES)  # "Find me a table" and challenges
    assert len(re.findall(r'<option value="bank_3_days"', home)) == 2
    assert "A time bank of 3 days per seat, plus 1 day per move, up to 5 days." in setup


def test_the_setup_page_takes_a_preset_over_its_own_fields(client: Client,
                                                           commit: Any) -> None:
    set_up(client, table(clock_preset="bank_weekends_off", hours_per_move=5,
                         bank_hours=10), commit)
    game = Game.objects.get()
    assert (game.hours_per_move, game.bank_hours, game.increment_hours,
            game.bank_max_hours, game.weekdays_off) == (24, 72, 24, 120, [5, 6])


def find(client: Client, address: str, wish: dict[str, Any]) -> Any:
    return client.post(f"/api/me/{token_of(home_link(address))}/tables",
                       data=json.dumps(wish), content_type="application/json")


def test_an_open_table_with_a_preset_matches_it_and_starts_with_its_clock(
        client: Client, commit: Any) -> None:
    wish = {"players": 3, "clock": "bank_3_days"}
    first = find(client, "a@example.org", wish).json()
    plain = find(client, "b@example.org", {"players": 3, "hours_per_move": 24}).json()
    assert plain["table"] != first["table"]  # the same pace, another clock
    listed_tables = client.get("/api/tables/?language=any").json()["tables"]
    assert {t["clock"] for t in listed_tables} == {"bank_3_days", None}
    with commit():
        find(client, "c@example.org", wish)
        last = find(client, "d@example.org", wish).json()
    assert last["table"] == first["table"] and last["status"] == "started"
    game = Game.objects.get(public_id=last["game"])
    assert (game.bank_hours, game.increment_hours, game.bank_max_hours) == (72, 24, 120)


@pytest.mark.parametrize(("wish", "field"), [
    ({"clock": "fortnight"}, "clock"), ({"clock": 3}, "clock"),
    ({"clock": "two_days", "hours_per_move": 24}, "hours_per_move"),
])
def test_a_bad_preset_is_400_and_changes_nothing(client: Client, wish: dict[str, Any],
                                                  field: str) -> None:
    answer = find(client, "a@example.org", wish)
    assert answer.status_code == 400 and answer.json()["error"]["field"] == field
    assert not OpenTable.objects.exists()


def test_the_home_form_finds_a_table_with_a_preset(client: Client) -> None:
    token = token_of(home_link("a@example.org"))
    client.post(f"/me/{token}/tables/find", {"ruleset": "base", "players": "3",
                                             "clock": "two_days", "hours_per_move": "24",
                                             "language": "en"})
    made = OpenTable.objects.get()
    assert (made.clock_preset, made.hours_per_move) == ("two_days", 48)


def test_tables_shows_how_many_wait_per_language_and_pace(client: Client) -> None:
    find(client, "a@example.org", {"players": 4, "hours_per_move": 8, "language": "it"})
    find(client, "b@example.org", {"players": 5, "hours_per_move": 8, "language": "it"})
    find(client, "c@example.org", {"players": 4, "clock": "bank_7_days_weekends_off",
                                   "language": "de"})
    find(client, "d@example.org", {"players": 4, "language": "en"})
    page = client.get("/tables/?language=en").content.decode()
    summary = re.search(r'<table class="waiting-tables">(.*?)</table>', page, re.S)
    assert summary, page
    body = summary.group(1)
    assert "<caption>" in body and body.count('<th scope="col">') == 5
    rows = {m.group(1): re.findall(r"<td>(\d+)</td>", m.group(2)) for m in re.finditer(
        r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>', body)}
    assert rows["italiano"] == ["2", "0", "0", "2"]
    assert rows["Deutsch"] == ["0", "1", "0", "1"]  # a bank of a day a move: daily
    assert rows["English"] == ["0", "1", "0", "1"]
    assert rows["Nederlands"] == ["0", "0", "0", "0"]
    waiting = client.get("/api/tables/").json()["waiting"]
    assert waiting["it"] == {"fast": 2, "daily": 0, "slow": 0}
    assert sum(sum(paces.values()) for paces in waiting.values()) == 4


def event_data(**chosen: Any) -> dict[str, Any]:
    return {"name": "Cup", "players": 4, "signup_closes": timezone.now() + timedelta(days=2),
            **chosen}


def test_a_tournament_takes_a_preset_and_lists_its_clock() -> None:
    chosen = read_settings(event_data(clock_preset="bank_7_days_weekends_off"))
    assert chosen.hours_per_move == 48 and chosen.clock["bank_hours"] == 168
    from games.tournaments.services.entries import create_event

    create_event(chosen)
    [shown] = listed()
    assert shown.clock_preset == "bank_7_days_weekends_off"
    assert shown.as_json()["clock_preset"] == "bank_7_days_weekends_off"
    assert "A time bank of 1 week per seat" in shown.clock_words
    for bad in ({"clock_preset": "fortnight"},
                {"clock_preset": "day", "hours_per_move": 8}):
        with pytest.raises(TournamentError) as refused:
            read_settings(event_data(**bad))
        assert refused.value.field == "clock_preset"


def test_createtournament_takes_a_preset() -> None:
    call_command("createtournament", "--name", "Daily cup", "--clock-preset",
                 "bank_weekends_off", "--signup-closes", "2099-01-01T18:00Z", stdout=StringIO())
    made = Tournament.objects.get()
    preset = preset_named("bank_weekends_off")
    assert preset is not None and preset.clock is not None
    assert made.hours_per_move == 24 and made.clock["weekdays_off"] == [5, 6]
    assert made.clock["bank_hours"] == preset.clock.bank_hours
    with pytest.raises(CommandError):
        call_command("createtournament", "--name", "Cup", "--clock-preset", "fortnight",
                     "--signup-closes", "2099-01-01T18:00Z")


def test_every_preset_is_a_clock_the_checks_take() -> None:
    from games.clock.core.clock_setup import clock_settings

    for preset in PRESETS:
        if preset.clock is not None:
            assert clock_settings(
                bank_hours=preset.clock.bank_hours,
                increment_hours=preset.clock.increment_hours,
                bank_max_hours=preset.clock.bank_max_hours,
                days_off=",".join(["mon", "tue", "wed", "thu", "fri", "sat", "sun"][d]
                                  for d in sorted(preset.clock.weekdays_off))) == preset.clock
        assert preset.words.endswith(".")
