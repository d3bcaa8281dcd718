"""The creategame and demo management commands."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client

from games.game.core.game import Game
from games.seats.core.seat import Seat
from tests.support import work_off

LINE = re.compile(r"^seat (\d+)\t([^\t]+)\t([^\t]+)\t(http://127\.0\.0\.1:8000/play/[\w-]{43}/)$")


def run(*args: str) -> list[str]:
    out = io.StringIO()
    call_command("creategame", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.mark.django_db
def test_creategame_prints_one_line_per_seat(client: Client) -> None:
    lines = run("--name", "Friday", "--ruleset", "base", "--hours-per-move", "12",
                "--player", "Ann <ann@example.com>", "--player", "Bob Smith <bob@example.com>",
                "--player", "  Cy <cy@example.com> ", "--seed", "42")
    matches = [LINE.match(line) for line in lines]
    assert all(matches) and len(matches) == 3
    rows = [m.groups() for m in matches if m]
    assert [(n, name, email) for n, name, email, _ in rows] == [
        ("0", "Ann", "ann@example.com"), ("1", "Bob Smith", "bob@example.com"),
        ("2", "Cy", "cy@example.com")]
    game = Game.objects.get()
    assert (game.name, game.seed, game.hours_per_move, game.status) == ("Friday", 42, 12, "setup")
    link = rows[1][3].replace("http://127.0.0.1:8000", "")
    assert client.get(link).status_code == 200


@pytest.mark.django_db
def test_creategame_start_and_options() -> None:
    run("--name", "G", "--start", "--option", "gold_cards=diggers", "--spectators",
        *[f"--player=P{i} <p{i}@example.com>" for i in range(4)])
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and game.deadline_at is not None
    assert game.options["gold_cards"] == "diggers" and game.spectators_allowed


@pytest.mark.django_db
@pytest.mark.parametrize(("args", "message"), [
    (["--player", "Ann <ann@example.com>", "--player", "Bob <bob@example.com>"], "3 to 10"),
    (["--player", "Ann ann@example.com"], "must look like"),
    (["--player", "Ann <not-an-email>"], "valid email"),
    ([], "--player"),
    (["--ruleset", "chess"], "unknown ruleset"),
    (["--hours-per-move", "0"], "pace"),
    (["--option", "gold_cards=all"], "gold_cards"),
    (["--option", "nonsense"], "key=value"),
    (["--seed", "-1"], "--seed"),
])
def test_creategame_bad_input_is_a_clear_error_and_creates_nothing(args: list[str],
                                                                   message: str) -> None:
    players = [f"--player=P{i} <p{i}@example.com>" for i in range(3)]
    if any(a == "--player" for a in args) or not args:
        players = []
    with pytest.raises(CommandError, match=re.escape(message)):
        run("--name", "G", *players, *args)
    assert not Game.objects.exists() and not Seat.objects.exists()


@pytest.mark.django_db
def test_demo_creates_a_started_game_and_prints_links(client: Client) -> None:
    out = io.StringIO()
    call_command("demo", "--players", "3", "--bots", "0", "--seed", "1", stdout=out)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("seat ")]
    assert len(lines) == 3 and all(LINE.match(line) for line in lines)
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    assert not game.seats.filter(accepted_at__isnull=True).exists()
    match = LINE.match(lines[0])
    assert match
    assert client.get(match.group(4).replace("http://127.0.0.1:8000", "")).status_code == 200


@pytest.mark.django_db
def test_creategame_language_sets_every_seat_and_refuses_unknown_ones(client: Client) -> None:
    players = ["--player", "Ann <ann@example.com>", "--player", "Bob <bob@example.com>",
               "--player", "Cy <cy@example.com>"]
    lines = run("--name", "Partita", *players, "--language", "it")
    assert set(Seat.objects.values_list("language", flat=True)) == {"it"}
    match = LINE.match(lines[0])
    assert match is not None
    page = client.get(match.group(4).replace("http://127.0.0.1:8000", "")).content.decode()
    assert 'lang="it"' in page
    with pytest.raises(CommandError, match="--language must be one of"):
        run("--name", "X", *players, "--language", "fr")
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_creategame_gives_each_player_their_own_language_and_time_zone(
        django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        run("--name", "Tavola", "--language", "nl", "--time-zone", "Europe/Amsterdam",
            "--player", "Gia <gia@example.it> lang=it tz=Europe/Rome",
            "--player", "Ute <ute@example.de>  tz=America/New_York lang=de ",
            "--player", "Nel <nel@example.nl>", "--bot", "Bert", "--start")
    work_off(django_capture_on_commit_callbacks)
    seats = {s.player_name: (s.language, s.time_zone) for s in Seat.objects.all()}
    assert seats == {"Gia": ("it", "Europe/Rome"), "Ute": ("de", "America/New_York"),
                     "Nel": ("nl", "Europe/Amsterdam"), "Bert": ("nl", "Europe/Amsterdam")}
    assert "Un invito a giocare a Saboteur per email" in [
        m.subject for m in mail.outbox if m.to == ["gia@example.it"]]
    assert "Du bist eingeladen, Saboteur per E-Mail zu spielen" in [
        m.subject for m in mail.outbox if m.to == ["ute@example.de"]]
    gia_turn = [m for m in mail.outbox if m.to == ["gia@example.it"]
                and "(Europe/Rome)" in str(m.body)]
    assert gia_turn  # seat 0 moves first: its deadline in its own time zone


@pytest.mark.django_db
@pytest.mark.parametrize(("player", "message"), [
    ("Gia <gia@example.it> lang=xx", "Unknown language xx"),
    ("Gia <gia@example.it> tz=Mars/Olympus", "Unknown time zone Mars/Olympus"),
    ("Gia <gia@example.it> colour=red", "only lang=LANG and tz=ZONE"),
])
def test_creategame_refuses_a_bad_choice_for_one_player(player: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run("--name", "G", "--player", player, "--player", "B <b@example.com>",
            "--player", "C <c@example.com>")
    assert not Game.objects.exists()
