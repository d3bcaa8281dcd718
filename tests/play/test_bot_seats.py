"""Bot seats on the server: set up by the host (creategame, the setup page, demo), handed
over by moderators, the "a bot plays" timeout policy, and the bot task (exactly once)."""

from __future__ import annotations

import io
import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games import bots as games_bots
from games import engine
from games.clock.services import misses
from games.game.core.game import Game, Move, SeatKind, TimeoutPolicy
from games.game.core.talk_and_notices import GameNotice
from games.mail.core.notifications import Notification
from games.moderation import services as moderation
from games.moves.services import bot_turns, moves
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.seats.services import acceptance
from games.setup.services import game_setup
from tests.setup_support import set_up
from tests.support import token_of


def one_person_and_bots(bots_count: int = 3, ruleset: str = "base", seed: int = 5,
                        **kwargs: Any) -> tuple[Game, str]:
    players = [game_setup.PlayerSpec(name="Ann", email="ann@example.com"),
               *game_setup.bot_players(bots_count, ["Ann"])]
    created = game_setup.create_game(name="Ann and the bots", players=players, ruleset=ruleset,
                                   seed=seed, **kwargs)
    return created.game, token_of(link_for(created.seats[0][0]))


def play_through_api(client: Client, token: str, commit: Any, seed: int = 0) -> Game:
    """Ann plays every turn of hers through the JSON API until the game ends; the bots
    answer in their task (run after each commit, as a worker would)."""
    rng = random.Random(seed)
    for _turn in range(400):
        body = client.get(f"/api/play/{token}/").json()
        if body["view"]["finished"]:
            break
        assert body["legal_moves"], "the bots must hand the turn back to Ann"
        move = rng.choice(body["legal_moves"])
        with commit():
            answer = client.post(f"/api/play/{token}/moves", {"version": body["version"],
                                 "move": move}, content_type="application/json")
        assert answer.status_code == 200, answer.content
    return Game.objects.get(name="Ann and the bots")


@pytest.mark.slow  # a whole game
@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_one_person_plays_a_whole_game_against_bots_through_the_api(
        client: Client, commit: Any, ruleset: str) -> None:
    with commit():
        game, token = one_person_and_bots(ruleset=ruleset, seed=11)
        acceptance.accept_seat(game.seats.get(number=0).pk)
    players = client.get(f"/api/play/{token}/").json()["players"]
    assert players == [{"seat": 0, "name": "Ann", "bot": False},
                       {"seat": 1, "name": "Bert", "bot": True},
                       {"seat": 2, "name": "Carla", "bot": True},
                       {"seat": 3, "name": "Dirk", "bot": True}]
    game = play_through_api(client, token, commit)
    assert game.status == Game.Status.FINISHED
    kinds = dict(Move.objects.filter(game=game).values_list("seat_number", "actor_kind")
                 .distinct())
    assert kinds[0] == Move.Actor.SEAT
    assert {kinds[n] for n in (1, 2, 3)} == {Move.Actor.BOT}
    # The table sees who is a bot, in Ann's log and in her emails.
    page = client.get(f"/play/{token}/").content.decode()
    assert "Bert (bot)" in page
    ann_mail = [m for m in mail.outbox if m.to == ["ann@example.com"]]
    assert any("Bert (bot)" in m.body for m in ann_mail)
    # Bots have no address: no email is ever written for them.
    assert not Notification.objects.filter(seat__kind=SeatKind.BOT).exists()
    assert all(m.to == ["ann@example.com"] for m in mail.outbox)
    # The record replays: the bots' moves are ordinary moves of their seats.
    moves = list(Move.objects.filter(game=game).order_by("number").values_list("move", flat=True))
    final = engine.replay(4, game.seed, moves, game.ruleset, game.options)
    assert final.to_json() == game.state().to_json()


@pytest.mark.django_db
def test_the_bot_task_run_twice_makes_one_move(commit: Any) -> None:
    players = [*game_setup.bot_players(2), game_setup.PlayerSpec(name="Ann", email="a@x.org")]
    created = game_setup.create_game(name="G", players=players, seed=3, start=True)
    game = created.game
    assert game.actor == 0  # a bot
    assert moves.play_bot_turn(game.pk, 0) is True
    assert moves.play_bot_turn(game.pk, 0) is False  # redelivered: the version moved on
    assert Move.objects.filter(game=game).count() == 1
    assert moves.play_bot_turn(game.pk, 1) is True  # the second bot's turn
    assert moves.play_bot_turn(game.pk, 2) is False  # Ann's turn: no bot moves for her
    assert Move.objects.filter(game=game).count() == 2


@pytest.mark.django_db
def test_bots_move_after_the_commit_until_a_person_is_to_act(commit: Any) -> None:
    players = [*game_setup.bot_players(2), game_setup.PlayerSpec(name="Ann", email="a@x.org")]
    with commit():
        created = game_setup.create_game(name="G", players=players, seed=3, start=True)
    game = Game.objects.get(pk=created.game.pk)
    assert game.version == 2 and game.actor == 2
    assert list(Move.objects.filter(game=game).values_list("actor_kind", flat=True)) == [
        "bot", "bot"]


@pytest.mark.django_db
def test_a_bot_sees_only_its_own_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Any, Any]] = []
    real = games_bots.choose_move

    def spy(view: Any, legal: Any, seed: int, level: str = "normal") -> Any:
        seen.append((view, legal))
        return real(view, legal, seed, level=level)

    monkeypatch.setattr(games_bots, "choose_move", spy)
    players = [*game_setup.bot_players(1), game_setup.PlayerSpec(name="Ann", email="a@x.org"),
               game_setup.PlayerSpec(name="Bo", email="b@x.org")]
    game = game_setup.create_game(name="G", players=players, seed=8, start=True).game
    state = game.state()
    moves.play_bot_turn(game.pk, 0)
    assert seen == [(engine.view(state, 0), engine.legal_moves(state))]
    view = seen[0][0]
    hidden = [p for p in view["players"] if p["seat"] != 0]
    assert all(p.get("role") is None and not p.get("hand") for p in hidden)


@pytest.mark.django_db
def test_creategame_seats_bots_in_command_line_order(commit: Any) -> None:
    out = io.StringIO()
    with commit():
        call_command("creategame", "--name", "G", "--bot", "Robo", "--player",
                     "Ann <ann@x.org>", "--bot", "Tin", "--seed", "2", stdout=out)
    lines = [line.split("\t") for line in out.getvalue().splitlines()]
    assert [line[:3] for line in lines] == [
        ["seat 0", "Robo (bot)", "-"], ["seat 1", "Ann", "ann@x.org"], ["seat 2", "Tin (bot)", "-"]]
    assert lines[0][3] == "-" and lines[1][3].startswith("http")
    seats = Seat.objects.order_by("number")
    assert [s.kind for s in seats] == ["bot", "person", "bot"]
    assert [s.accepted_at is not None for s in seats] == [True, False, True]
    game = Game.objects.get()
    assert game.status == Game.Status.SETUP  # until Ann accepts
    # Only Ann is invited.
    assert [m.to for m in mail.outbox] == [["ann@x.org"]]


@pytest.mark.django_db
def test_creategame_timeout_policy_bot() -> None:
    call_command("creategame", "--name", "G", "--player", "Ann <a@x.org>", "--bot", "B",
                 "--bot", "C", "--timeout-policy", "bot", stdout=io.StringIO())
    assert Game.objects.get().timeout_policy == TimeoutPolicy.BOT


@pytest.mark.django_db
def test_demo_is_you_and_bots(client: Client) -> None:
    out = io.StringIO()
    call_command("demo", "--seed", "4", stdout=out)
    lines = [line.split("\t") for line in out.getvalue().splitlines() if line.startswith("seat")]
    assert len(lines) == 4
    assert lines[0][3].startswith("http") and all(line[3] == "-" for line in lines[1:])
    page = client.get(lines[0][3].replace("http://127.0.0.1:8000", "")).content.decode()
    assert "It is your turn." in page


@pytest.mark.django_db
@pytest.mark.parametrize(("args", "people", "bot_count"), [
    (["--players", "5", "--bots", "2"], 3, 2),
    (["--players", "1", "--bots", "3"], 1, 3),
    (["--players", "4", "--bots", "0"], 4, 0),
    (["--players", "1"], 1, 2),  # base needs 3 seats: bots make up the rest
])
def test_demo_players_and_bots(args: list[str], people: int, bot_count: int) -> None:
    call_command("demo", *args, stdout=io.StringIO())
    kinds = list(Seat.objects.order_by("number").values_list("kind", flat=True))
    assert kinds == ["person"] * people + ["bot"] * bot_count


@pytest.mark.django_db
def test_setup_page_fills_seats_with_bots(client: Client, commit: Any) -> None:
    form = {"name": "With bots", "ruleset": "base", "hours_per_move": "24", "seating": "order",
            "start": "accepted", "time_zone": "UTC", "language": "en", "bots": "3",
            "timeout_policy": "bot", "player_0_name": "Ann", "player_0_email": "ann@x.org"}
    answer = set_up(client, form, commit)
    game = Game.objects.get()
    assert game.timeout_policy == "bot"
    assert [(s.player_name, s.kind) for s in game.seats.order_by("number")] == [
        ("Ann", "person"), ("Bert", "bot"), ("Carla", "bot"), ("Dirk", "bot")]
    assert "Bert (bot)" in answer.content.decode()
    invited = [m.to for m in mail.outbox if "invited" in m.subject]
    assert invited == [["ann@x.org"]]  # the invitation, Ann's alone


@pytest.mark.django_db
def test_setup_page_refuses_a_game_of_bots_only(client: Client) -> None:
    form = {"name": "Bots", "ruleset": "base", "hours_per_move": "24", "seating": "order",
            "start": "now", "time_zone": "UTC", "language": "en", "bots": "4",
            "timeout_policy": "auto_pass", "host_email": "h@x.org"}
    answer = client.post("/new/", form)
    assert answer.status_code == 400
    assert "Add at least one player" in answer.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_moderator_hands_an_absent_players_seat_to_a_bot_and_back(commit: Any) -> None:
    mod = User.objects.create_user("mod", "mod@x.org", "pw")
    players = [game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("ann", "bo", "cy")]
    with commit():
        game = game_setup.create_game(name="G", players=players, seed=2, start=True).game
        seat0 = game.seats.get(number=0)
    mail.outbox.clear()
    with commit():
        moderation.hand_to_bot(seat0.pk, moderator=mod, reason="away for a month")
    game.refresh_from_db()
    # It was seat 0's turn: the bot moved for it, and nobody mailed Ann to move.
    assert game.version == 1
    assert Move.objects.get(game=game).actor_kind == Move.Actor.BOT
    assert not any(m.to == ["ann@x.org"] and "your turn" in m.subject.lower()
                   for m in mail.outbox)
    notice = GameNotice.objects.filter(game=game, kind="moderator").last()
    assert notice is not None and notice.params["action"] == "to_bot"
    with pytest.raises(moderation.ModerationError):
        moderation.hand_to_bot(seat0.pk, moderator=mod, reason="twice")
    with commit():
        moderation.hand_to_person(seat0.pk, moderator=mod, reason="back from holiday")
    assert Seat.objects.get(pk=seat0.pk).kind == SeatKind.PERSON


@pytest.mark.django_db
def test_a_seat_that_was_a_bot_from_the_start_cannot_be_given_back() -> None:
    mod = User.objects.create_user("mod", "mod@x.org", "pw")
    players = [game_setup.PlayerSpec(name="Ann", email="a@x.org"), *game_setup.bot_players(2)]
    game = game_setup.create_game(name="G", players=players, seed=2).game
    bot_seat = game.seats.get(number=1)
    with pytest.raises(moderation.ModerationError, match="replace the player"):
        moderation.hand_to_person(bot_seat.pk, moderator=mod, reason="why not")


@pytest.mark.django_db
def test_timeout_policy_bot_plays_for_the_absent_player(commit: Any) -> None:
    players = [game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("ann", "bo", "cy")]
    with commit():
        game = game_setup.create_game(name="G", players=players, seed=2, start=True,
                                    timeout_policy=TimeoutPolicy.BOT).game
    game.refresh_from_db()
    assert game.deadline_at is not None
    mail.outbox.clear()
    with commit():
        outcome = misses.miss_deadline(game.pk, 0, game.deadline_at)
    assert outcome == "passed"
    move = Move.objects.get(game=game)
    assert (move.actor_kind, move.seat_number) == (Move.Actor.BOT, 0)
    missed = [m for m in mail.outbox if m.to == ["ann@x.org"] and "missed" in m.subject]
    assert missed and "a bot played it for you" in missed[0].body


@pytest.mark.django_db
def test_stalled_bot_turns_are_found_by_the_sweep() -> None:
    players = [*game_setup.bot_players(1), game_setup.PlayerSpec(name="Ann", email="a@x.org"),
               game_setup.PlayerSpec(name="Bo", email="b@x.org")]
    game = game_setup.create_game(name="G", players=players, seed=8, start=True).game
    now = timezone.now()
    assert bot_turns.stalled_bot_turns(now) == []
    later = now + timedelta(minutes=5)
    assert bot_turns.stalled_bot_turns(later) == [(game.pk, 0)]


@pytest.mark.django_db
def test_demo_reuse_prints_the_open_demo_again_instead_of_a_new_one() -> None:
    call_command("demo", "--seed", "4", stdout=io.StringIO())
    out = io.StringIO()
    call_command("demo", "--reuse", stdout=out)
    assert Game.objects.count() == 1 and "reused" in out.getvalue()
    assert out.getvalue().count("seat ") == 4
