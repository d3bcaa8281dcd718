"""`manage.py verifygame` (docs/api.md "Fairness and the game record"): it checks the
commitment, the replay, the hash chain of the moves and the final scores, prints the head
after each move so a player can compare the one their email showed, catches a record
whose moves were changed to other legal moves, and runs as docs/api.md writes it, with
none of the server's settings."""

from __future__ import annotations

import copy
import fcntl
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client

from games import engine
from games.engine import chain
from games.engine.cards import GOLD_VALUES
from games.game.core.game import Game, Move
from tests.email_support import play_until
from tests.support import make_game, move_for

ROOT = Path(__file__).resolve().parents[2]
HEAD_LINE = re.compile(r"^move (\d+): ([0-9a-f]{64})", re.MULTILINE)


def verify(record: dict[str, Any], tmp_path: Path, *seen: str) -> tuple[int, str, str]:
    """verifygame's exit status, standard output and standard error for `record`."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verifygame", str(path), *[f"--seen={s}" for s in seen],
                     stdout=out, stderr=err)
    except SystemExit as stopped:
        return int(stopped.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def printed_heads(output: str) -> dict[int, str]:
    return {int(n): head for n, head in HEAD_LINE.findall(output)}


def emailed_heads() -> dict[int, str]:
    """Every head a turn or game-end email showed: version -> its first 16 characters."""
    found: dict[int, str] = {}
    for message in mail.outbox:
        for version, short in re.findall(r"Fingerprint of the moves after move (\d+): "
                                         r"([0-9a-f]{16})", str(message.body)):
            found[int(version)] = short
    return found


@dataclass(frozen=True)
class Played:
    """A finished game's record as the API gives it, and the heads its emails showed."""

    record: dict[str, Any]
    emailed: dict[int, str]  # version -> the head's first 16 characters
    version: int


_PLAYED: list[Played] = []


def play_once(commit: Any, client: Client) -> Played:
    """The game played, its record read through the API and its emails' heads."""
    with commit():
        g = make_game(players=3, seed=5)
    play_until(g, lambda game: game.status == Game.Status.FINISHED, commit, seed=5)
    record = client.get(g.api(0) + "record").json()
    return Played(record, emailed_heads(), g.refresh().version)


def shared(path: Path, make: Callable[[], Played]) -> Played:
    """`make()` once for the whole run: the first process to come writes it to `path`
    (the run's temporary folder, shared by the xdist workers), under a lock the others
    wait on, and they read it. A game played once instead of once in each worker."""
    with path.with_suffix(".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            kept = json.loads(path.read_text())
            return Played(kept["record"], {int(k): v for k, v in kept["emailed"].items()},
                          kept["version"])
        made = make()
        path.write_text(json.dumps({"record": made.record, "emailed": made.emailed,
                                    "version": made.version}))
        return made


@pytest.fixture
def played(db: None, commit: Any, client: Client, tmp_path_factory: pytest.TempPathFactory,
           worker_id: str) -> Played:
    """A finished 3-seat game with gold found in two rounds, its turn emails sent, and its
    record as the API gives it. Played once in the whole run (the game is seeded, and the
    tests only read the record and the emails): each test gets its own copy."""
    if not _PLAYED:
        folder = tmp_path_factory.getbasetemp()
        if worker_id != "master":  # each worker's folder is in the run's own
            folder = folder.parent
        _PLAYED.append(shared(folder / "verifygame-played.json",
                              lambda: play_once(commit, client)))
    first = _PLAYED[0]
    return Played(copy.deepcopy(first.record), dict(first.emailed), first.version)


def swapped_gold_picks(record: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """The record's moves with two gold picks of different seats and values swapped, still
    legal, ending with other scores; and the number of the first changed move."""
    moves = record["moves"]
    true_scores = engine.replay(3, record["seed"], moves).scores
    for number in range(len(moves) - 1):
        first, second = moves[number], moves[number + 1]
        if (first["type"] == second["type"] == "pick_gold" and first["seat"] != second["seat"]
                and GOLD_VALUES[first["card"]] != GOLD_VALUES[second["card"]]):
            forged = copy.deepcopy(moves)
            forged[number]["card"], forged[number + 1]["card"] = second["card"], first["card"]
            try:
                final = engine.replay(3, record["seed"], forged)
            except engine.IllegalMove:
                continue
            if final.finished and final.scores != true_scores:
                return forged, number + 1
    raise AssertionError("no two gold picks to swap in this game")


def test_a_true_record_verifies_and_each_printed_head_is_the_one_emailed(
        played: Played, tmp_path: Path) -> None:
    record = played.record
    status, out, err = verify(record, tmp_path)
    assert status == 0, err
    heads = printed_heads(out)
    assert sorted(heads) == list(range(len(record["moves"]) + 1))
    assert heads[0] == record["commitment"]
    emailed = played.emailed
    assert len(emailed) > 50 and max(emailed) == played.version  # the game-end email
    for version, short in emailed.items():
        assert heads[version].startswith(short), version
    assert "chain: every head matches the record" in out
    seen = [f"{version}:{short}" for version, short in sorted(emailed.items())[-3:]]
    status, out, _err = verify(record, tmp_path, *seen)
    assert status == 0 and out.count("as you saw it") == 3


def test_two_gold_picks_swapped_are_caught(
        played: Played, tmp_path: Path) -> None:
    record = played.record
    forged, first_changed = swapped_gold_picks(record)
    status, _out, err = verify({**record, "moves": forged}, tmp_path)
    assert status == 1
    assert f"MISMATCH: move {first_changed}: the head after it is" in err


def test_a_forger_who_rewrites_the_chain_and_scores_too_is_caught_by_an_emailed_head(
        played: Played, tmp_path: Path) -> None:
    """A record made consistent with itself gives other heads from the first changed
    move on: the head in any email from after the change does not match."""
    record = played.record
    forged, first_changed = swapped_gold_picks(record)
    true_heads = printed_heads(verify(record, tmp_path)[1])
    salt, heads = record["salt"], [record["commitment"]]
    for move in forged:
        heads.append(chain.extend(heads[-1], salt, move))
    rewritten = {**record, "moves": forged, "scores": engine.replay(3, record["seed"],
                                                                    forged).scores,
                 "chain": {"version": len(forged), "head": heads[-1], "heads": heads[1:]}}
    status, out, _err = verify(rewritten, tmp_path)
    assert status == 0  # consistent with itself: only what the players kept can tell
    printed = printed_heads(out)
    assert all(printed[n] == true_heads[n] for n in range(first_changed))
    assert all(printed[n] != true_heads[n] for n in range(first_changed, len(forged) + 1))
    later = [(v, short) for v, short in played.emailed.items() if v >= first_changed]
    assert later
    for version, short in later:
        assert not printed[version].startswith(short)
    version, short = later[0]
    status, _out, err = verify(rewritten, tmp_path, f"{version}:{short}")
    assert status == 1
    assert f"move {version}: the head after it is {printed[version]}, not the {short}" in err
    assert verify(rewritten, tmp_path, f"{first_changed - 1}:"
                  f"{true_heads[first_changed - 1][:16]}")[0] == 0  # before the change


@pytest.mark.django_db
def test_move_one_placed_on_another_legal_cell_is_caught(client: Client,
                                                         tmp_path: Path) -> None:
    """Move 1 digs; every later move discards, so the game replays to the same end (the
    same scores) from any other cell move 1 could have taken: only the chain tells."""
    g = make_game(players=3, seed=38)
    first = next(m for m in engine.legal_moves(g.game.state()) if m["type"] == "place")
    move_for(g.game.pk, 0, {**first, "seat": 0}, actor_kind=Move.Actor.SEAT,
                        seat_number=0)
    while not g.refresh().state().finished:
        state = g.game.state()
        move = next(m for m in engine.legal_moves(state) if m["type"] in ("pass", "pick_gold"))
        move_for(g.game.pk, g.game.version, {**move, "seat": state.actor},
                            actor_kind=Move.Actor.SEAT, seat_number=state.actor)
    record = client.get(g.api(0) + "record").json()
    assert verify(record, tmp_path)[0] == 0
    elsewhere = next(m for m in engine.legal_moves(engine.new_game(3, record["seed"]))
                     if m["type"] == "place" and m["card"] == first["card"]
                     and (m["x"], m["y"]) != (first["x"], first["y"]))
    moves = [{**elsewhere, "seat": 0}, *record["moves"][1:]]
    final = engine.replay(3, record["seed"], moves)
    assert final.finished and final.scores == record["scores"]  # legal, the same scores
    status, _out, err = verify({**record, "moves": moves}, tmp_path)
    assert status == 1 and "MISMATCH: move 1: the head after it is" in err


@pytest.mark.django_db
def test_a_record_must_agree_with_itself(client: Client, tmp_path: Path,
                                         played: Played) -> None:
    record = played.record
    scores = list(record["scores"])
    scores[0] += 1
    status, _out, err = verify({**record, "scores": scores}, tmp_path)
    assert status == 1 and "the record says" in err
    chain = {**record["chain"], "head": "0" * 64}
    assert verify({**record, "chain": chain}, tmp_path)[0] == 1
    short = {**record["chain"], "heads": record["chain"]["heads"][:-1]}
    assert verify({**record, "chain": short}, tmp_path)[0] == 1
    with pytest.raises(CommandError, match="format 2"):
        verify({k: v for k, v in record.items() if k != "chain"}, tmp_path)
    with pytest.raises(CommandError, match="not a game record"):
        verify({**record, "chain": ["not", "an", "object"]}, tmp_path)
    moves = [*record["moves"][:2], {"type": "dance"}, *record["moves"][3:]]
    status, _out, err = verify({**record, "moves": moves}, tmp_path)
    assert status == 1 and "MISMATCH: move 3 does not replay" in err
    with pytest.raises(CommandError):
        verify(record, tmp_path, "12:not-hex")
    # A record of format 1 (before the chain) still verifies: its heads are printed.
    old = {k: v for k, v in record.items() if k not in ("chain", "scores")}
    status, out, _err = verify({**old, "format": 1}, tmp_path)
    assert status == 0 and "format 1" in out
    assert printed_heads(out) == printed_heads(verify(record, tmp_path)[1])


def player_environment() -> dict[str, str]:
    """A player's shell: none of the server's variables."""
    server = {"DEBUG", "SECRET_KEY", "DATABASE_URL", "DJANGO_SETTINGS_MODULE", "LINK_KEY",
              "ALLOWED_HOSTS", "SITE_URL", "CACHE_URL"}
    return {k: v for k, v in os.environ.items() if k not in server}


def test_verifygame_runs_as_the_readme_writes_it_without_server_settings(
        played: Played, tmp_path: Path) -> None:
    """`.venv/bin/python manage.py verifygame record.json`: no DEBUG, no SECRET_KEY, no
    database (sys.executable is the project's virtual environment's python)."""
    record = played.record
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    run = subprocess.run([sys.executable, "manage.py", "verifygame", str(path)], cwd=ROOT,
                         env=player_environment(), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "commitment: matches" in run.stdout
    assert printed_heads(run.stdout)[len(record["moves"])] == record["chain"]["head"]
    forged, _first = swapped_gold_picks(record)
    path.write_text(json.dumps({**record, "moves": forged}))
    run = subprocess.run([sys.executable, "manage.py", "verifygame", "-"], cwd=ROOT,
                         env=player_environment(), input=path.read_text(),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "MISMATCH: move" in run.stderr
    # The server itself still refuses to start without SECRET_KEY when DEBUG is off.
    server = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT,
                            env=player_environment(), capture_output=True, text=True,
                            timeout=120)
    assert server.returncode != 0 and "SECRET_KEY must be set" in server.stderr
