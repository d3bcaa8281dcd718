"""After the game: the commitment to the seed (published from the start, revealed at the
end), the game record that replays to the final state, `verifygame`, and the replay
pages (every step renders, hands shown; nothing before the end)."""

from __future__ import annotations

import hashlib
import html
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.test import Client

from games import engine
from games.game.core.game import Game, Move
from games.moderation import services as moderation
from games.seats.core.links import link_for
from games.seatview.core import describe
from games.setup.services import game_setup
from tests.support import GameWithLinks, choose, make_game, move_for, token_of

pytestmark = pytest.mark.django_db


def play_to_the_end(g: GameWithLinks, client: Client, seed: int) -> Game:
    rng = random.Random(seed)
    while not (state := g.refresh().state()).finished:
        move = choose(engine.legal_moves(state), rng)
        actor = state.actor
        assert actor is not None
        answer = client.post(g.api(actor) + "moves", {"version": g.game.version, "move": move},
                             content_type="application/json")
        assert answer.status_code == 200
    return g.refresh()


@pytest.mark.parametrize(("ruleset", "players", "seed"), [("base", 4, 21),
                                                         ("saboteur2", 5, 22)])
def test_the_commitment_holds_and_the_record_replays_to_the_final_state(
        client: Client, ruleset: str, players: int, seed: int) -> None:
    g = make_game(players=players, seed=seed, ruleset=ruleset)
    before = client.get(g.api(0)).json()
    commitment = before["commitment"]
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    assert "seed" not in before and "salt" not in before
    early = client.get(g.api(0) + "record")
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_over"
    game = play_to_the_end(g, client, seed)
    after = client.get(g.api(1)).json()
    assert after["commitment"] == commitment and after["seed"] == seed
    assert len(after["salt"]) >= 32  # 128 bits as hex
    assert hashlib.sha256(f"{after['salt']}:{after['seed']}".encode()).hexdigest() == commitment
    record = client.get(g.api(2) + "record").json()
    assert (record["ruleset"], record["seed"], record["salt"]) == (ruleset, seed, after["salt"])
    assert record["seats"]["count"] == players and len(record["seats"]["names"]) == players
    final = engine.replay(record["seats"]["count"], record["seed"], record["moves"],
                          record["ruleset"], record["options"])
    assert final.to_json() == game.state().to_json()
    assert len(record["made_by"]) == len(record["moves"]) == game.version
    assert {m["by"] for m in record["made_by"]} == {"seat"}


def test_the_record_shows_every_moderator_act_and_who_made_each_move(client: Client) -> None:
    g = make_game(players=3, seed=23)
    mod = User.objects.create_user("mod", "mod@x.org", "pw")
    rng = random.Random(23)
    for _ in range(4):
        state = g.refresh().state()
        client.post(g.api(state.actor or 0) + "moves", {"version": g.game.version,
                    "move": choose(engine.legal_moves(state), rng)},
                    content_type="application/json")
    moderation.undo_to(g.game.pk, 2, expected_version=4, moderator=mod, reason="mistake",
                       public_note="")
    zoe = moderation.replace_player(g.seats[2].pk, name="Zoe", email="zoe@x.org",
                                    moderator=mod, reason="Player2 left", public_note="")
    g.tokens[2] = token_of(link_for(zoe))  # the seat's link is new
    dispute = moderation.file_dispute(g.seats[1].pk, text="the deadline was wrong",
                                      move_number=2)
    moderation.resolve_dispute(dispute.pk, moderator=mod, outcome="upheld",
                               note="Fixed.", public_note="")
    game = play_to_the_end(g, client, 24)
    record = client.get(g.api(0) + "record").json()
    acts = [(act["kind"], act["what"], act["at_version"]) for act in record["moderator_acts"]]
    assert acts == [
        ("moderator", "A moderator undid moves 3–4.", 2),
        ("replaced", "Zoe takes over seat 3 from Player2.", 2),
        ("dispute", "A moderator resolved the dispute of Player1 "
                    "(upheld: the game was put right).", 2),
    ]  # filing the dispute was the player's act, not a moderator's
    assert record["seats"]["names"] == ["Player0", "Player1", "Zoe"]
    final = engine.replay(3, record["seed"], record["moves"], "base", record["options"])
    assert final.to_json() == game.state().to_json()


def test_verifygame_accepts_a_true_record_and_refuses_a_forged_one(
        client: Client, tmp_path: Path) -> None:
    g = make_game(players=3, seed=25)
    play_to_the_end(g, client, 25)
    record = client.get(g.api(0) + "record").json()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    out = io.StringIO()
    call_command("verifygame", str(good), stdout=out)
    assert "commitment: matches" in out.getvalue() and "the game ends" in out.getvalue()
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({**record, "seed": record["seed"] + 1}))
    with pytest.raises(SystemExit) as refused:
        call_command("verifygame", str(forged), stdout=io.StringIO(), stderr=io.StringIO())
    assert refused.value.code == 1


def test_the_commitment_is_on_the_seat_page_and_in_the_invitation(client: Client,
                                                                  commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=26, start=False)
    commitment = g.refresh().commitment
    assert commitment in client.get(g.page(0)).content.decode()
    assert all(commitment in m.body for m in mail.outbox if "invited" in m.subject)


def test_the_replay_opens_only_after_the_end_and_renders_its_steps(client: Client) -> None:
    """Every sixth step and the last (each step's page replays the game up to it, so all
    of them would cost the square of the game's length), every hand as it was then."""
    g = make_game(players=3, seed=27, spectators_allowed=True)
    assert client.get(g.page(0) + "replay/").status_code == 404
    assert client.get(f"/watch/{g.game.public_id}/replay/").status_code == 404
    game = play_to_the_end(g, client, 27)
    page = client.get(g.page(0)).content.decode()
    assert "replay/" in page and str(game.seed) in page
    moves = list(Move.objects.filter(game=game).order_by("number"))
    state = engine.new_game(3, game.seed, "base", game.options)
    for step in range(len(moves) + 1):
        if step:
            state = engine.apply(state, moves[step - 1].move)
        if step % 6 and step != len(moves):
            continue
        answer = client.get(g.page(1) + f"replay/?step={step}")
        assert answer.status_code == 200
        body = html.unescape(answer.content.decode())
        # Every hand as it was at that step, each card named.
        shown = re.findall(r'<td class="hand-list">(.*?)</td>', body)
        expected = [", ".join(describe.card_name(c) for c in hand) or "—"
                    for hand in engine.moderator_view(state)["hands"]]
        assert shown == expected
    last = client.get(f"/watch/{game.public_id}/replay/?step={len(moves)}")
    assert last.status_code == 200 and "Round 3 in short" in last.content.decode()
    assert client.get(g.page(0) + "replay/?step=oops").status_code == 200


BIG_SEED = 3_141_592_653_589_793_238  # 19 digits (SEED_BITS = 62): no number by chance


def test_no_page_tells_the_salt_or_the_seed_before_the_end(client: Client,
                                                           commit: Any) -> None:
    players = [game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("ann", "bo", "cy")]
    with commit():
        created = game_setup.create_game(name="Sealed", players=players, seed=BIG_SEED,
                                       spectators_allowed=True)
    game = created.game
    seats = [seat for seat, _ in created.seats]
    g = GameWithLinks(game=game, seats=seats, tokens=[token_of(link_for(s)) for s in seats])
    salt, seed = game.salt, str(BIG_SEED)
    watch = f"/watch/{game.public_id}/"

    def bodies() -> dict[str, str]:
        return {"seat page": client.get(g.page(0)).content.decode(),
                "spectator page": client.get(watch).content.decode(),
                "API": client.get(g.api(1)).content.decode()}

    invitation = client.get("/play/" + token_of(created.seats[2][1]) + "/")
    text = invitation.content.decode()
    assert "This is the invitation for cy, seat 3." in text
    assert game.commitment in text and salt not in text and seed not in text
    with commit():
        for seat in seats:
            client.post(g.page(seat.number) + "accept")
    assert g.refresh().status == Game.Status.ACTIVE
    for where, body in bodies().items():
        assert game.commitment in body, where
        assert salt not in body and seed not in body, where
    play_to_the_end(g, client, 28)
    for where, body in bodies().items():
        assert game.commitment in body and salt in body and seed in body, where


def test_the_replay_names_who_made_each_move(client: Client) -> None:
    """The heading named nobody ("Move 1, made by the player"): it names the player, a
    bot seat as the log does ("Bert (bot)"), and who moved for a person (a bot at a
    deadline, the server passing at a deadline, a moderator)."""
    players = [game_setup.PlayerSpec(name="Ann", email="ann@x.org"),
               game_setup.PlayerSpec(name="Bob", email="bob@x.org"),
               game_setup.PlayerSpec(name="Bert", bot=True)]
    game = game_setup.create_game(name="Who moved", players=players, seed=29, start=True).game
    mod = User.objects.create_user("mod", "mod@x.org", "pw")
    stand_ins = [(Move.Actor.SYSTEM, "the server for {} (deadline)"),
                 (Move.Actor.MODERATOR, "a moderator for {}"),
                 (Move.Actor.BOT, "a bot playing for {}")]
    names = {0: "Ann", 1: "Bob", 2: "Bert (bot)"}
    expected: list[str] = []
    rng = random.Random(29)
    while not game.state().finished:
        state = game.state()
        seat = state.actor
        assert seat is not None
        if seat == 2:
            kind, who = Move.Actor.BOT, names[2]
        elif stand_ins:
            kind, pattern = stand_ins.pop(0)
            who = pattern.format(names[seat])
        else:
            kind, who = Move.Actor.SEAT, names[seat]
        game = move_for(
            game.pk, game.version, {**choose(engine.legal_moves(state), rng), "seat": seat},
            actor_kind=kind, seat_number=seat,
            moderator=mod if kind == Move.Actor.MODERATOR else None)
        expected.append(who)
    link = link_for(game.seats.get(number=0)).split("127.0.0.1:8000", 1)[1]
    shown = []
    for step in range(1, 9):
        body = html.unescape(client.get(f"{link}replay/?step={step}").content.decode())
        heading = re.search(r"<h2>Move (\d+), made by (.*?)</h2>", body)
        assert heading and heading.group(1) == str(step)
        shown.append(heading.group(2))
    assert shown == expected[:8]
    assert {"Ann", "Bob", "Bert (bot)"} <= set(shown)
    assert "the player" not in shown
