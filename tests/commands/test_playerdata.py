"""`manage.py playerdata ADDRESS --export [FILE]` / `--forget`, for a request by post."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.game.core.game import SeatKind
from games.seats.core.seat import Seat
from tests.players.scan import tables_holding
from tests.support import make_game

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("playerdata", *args, stdout=out)
    return out.getvalue()


def test_the_command_exports_to_a_file_or_prints(tmp_path: Path, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=2)
    path = tmp_path / "data.json"
    assert "Written to" in run("p1@example.com", "--export", str(path))
    data = json.loads(path.read_text())
    assert data["address"] == "p1@example.com"
    assert [entry["game"] for entry in data["games"]] == [g.game.public_id]
    printed = json.loads(run("p1@example.com", "--export"))
    assert printed["games"] == data["games"]


def test_the_command_forgets(commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=2)
    printed = run("p2@example.com", "--forget")
    assert "1 seats handed over" in printed and "nothing left to wait for" in printed
    assert Seat.objects.get(pk=g.seats[2].pk).kind == SeatKind.BOT
    assert tables_holding("p2@example.com") == []


def test_the_command_wants_an_address_and_one_thing_to_do() -> None:
    with pytest.raises(CommandError):
        run("not an address", "--forget")
    with pytest.raises(CommandError):
        run("p0@example.com")
