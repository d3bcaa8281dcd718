"""Lessons at the server (issue 48, item 6): /learn/ creates nothing on GET, a POST with
CSRF starts a lesson (an addressless learner and two bots, the lesson's seed and script,
a Lesson row) and redirects to the learner's own link; bad input is a 400 and too many
starts a 429, nothing made either way. The move service holds the script: the bots and
the server at a deadline play its moves, the learner's other moves are refused. The seat
page shows the guide, with its card and cell marked in words; idle lessons are swept."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from games import engine
from games.game.core.game import Game, Move
from games.learn.core import first_round as lesson
from games.learn.core.lesson_rows import Lesson
from games.learn.services import lessons
from games.mail.core.notifications import Notification
from games.moves.services import moves
from games.seats.core.seat import Seat
from tests.support import form_post, make_game, seat_move

pytestmark = pytest.mark.django_db


def start(client: Client, language: str = "en", **extra: str) -> Any:
    return client.post("/learn/start", {"language": language, "time_zone": "Europe/Rome",
                                        **extra})


def learner(game: Game) -> Seat:
    return Seat.objects.get(game=game, number=lesson.LEARNER)


def bots_answer(game: Game) -> Game:
    """The bots' turns until the learner is to act again (or the round's script ends)."""
    game.refresh_from_db()
    while game.actor != lesson.LEARNER and game.status == Game.Status.ACTIVE:
        game = moves.game_move_submit(actor=moves.ByBot(game.pk), version=game.version).game
    return game


def test_the_page_creates_nothing_and_the_post_starts_a_lesson(client: Client) -> None:
    page = client.get("/learn/?lang=it")
    assert page.status_code == 200 and "Inizia la lezione" in page.content.decode()
    assert client.get("/learn/start").status_code == 405
    assert Game.objects.count() == 0 and Lesson.objects.count() == 0
    answer = start(client, "nl")
    assert answer.status_code == 302
    assert re.fullmatch(r"/play/[A-Za-z0-9_-]{43}/", answer["Location"])
    game = Game.objects.get()
    assert (game.seed, game.script, game.lesson.name) == (
        lesson.SEED, list(lesson.MOVES), lesson.NAME)
    seats = list(game.seats.order_by("number"))
    assert [(s.player_name, s.email, s.is_bot, s.language) for s in seats] == [
        ("Leerling", "", False, "nl"), ("Bert", "", True, "en"), ("Carla", "", True, "en")]
    assert game.status == Game.Status.ACTIVE and game.actor == lesson.LEARNER
    assert not Notification.objects.exists()  # nobody to email, ever
    body = client.get(answer["Location"]).content.decode()
    assert "Les, stap 1 van 5:" in body and 'id="lesson"' in body


@pytest.mark.parametrize("fields", [{"language": "xx"}, {"time_zone": "Mars/Olympus"},
                                    {"language": ""}])
def test_bad_input_is_a_400_and_makes_nothing(client: Client, fields: dict[str, str]) -> None:
    answer = client.post("/learn/start", {"language": "en", "time_zone": "UTC", **fields})
    assert answer.status_code == 400 and Game.objects.count() == 0


def test_the_start_needs_its_csrf_token() -> None:
    answer = Client(enforce_csrf_checks=True).post("/learn/start", {"language": "en",
                                                                    "time_zone": "UTC"})
    assert answer.status_code == 403 and Game.objects.count() == 0


@override_settings(RATE_LIMITS={"lesson_client": [2, 3600]})
def test_a_client_starts_a_few_lessons_an_hour(client: Client) -> None:
    assert [start(client).status_code for _ in range(3)] == [302, 302, 429]
    assert Game.objects.count() == 2


def test_the_script_holds_the_learner_and_moves_the_bots(client: Client) -> None:
    path = start(client)["Location"]
    game = Game.objects.get()
    seat = learner(game)
    with pytest.raises(engine.IllegalMove) as refused:  # legal, but not the lesson's
        seat_move(seat, 0, {"type": "place", "card": "p05", "x": 0, "y": 1})
    assert refused.value.code == "off_script" and Move.objects.count() == 0
    for number, step in enumerate(lesson.STEPS, start=1):
        game.refresh_from_db()
        assert game.version == step.version, number
        game = bots_answer(seat_move(seat, step.version, lesson.MOVES[step.version]))
    made = list(Move.objects.filter(game=game).order_by("number"))
    assert [m.move | {"seat": 0} for m in made] == [m | {"seat": 0} for m in lesson.MOVES]
    assert {m.actor_kind for m in made if m.seat_number} == {"bot"}
    view = engine.view(game.state(), lesson.LEARNER)
    assert view["phase"] == "gold" and game.actor == lesson.LEARNER
    gold = client.get(path).content.decode()
    assert "The gold is found" in gold and "Bert was the saboteur" in gold
    # After the script, a normal game: the learner picks any gold card offered.
    offered = view["gold_offer"][-1]["id"]
    seat_move(seat, game.version, {"type": "pick_gold", "card": offered})
    page = client.get(path).content.decode()
    assert "The gold is found" in page or "The lesson is over" in page
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    page = client.get(path).content.decode()
    assert "The lesson is over" in page and "two more rounds" not in page
    assert 'href="/learn/">Start the lesson again' in page


def test_the_server_plays_the_scripted_move_at_a_missed_deadline(client: Client) -> None:
    start(client)
    game = Game.objects.get()
    assert game.deadline_at is not None
    moved = moves.game_move_submit(actor=moves.BySystem(game.pk, game.deadline_at),
                                   version=0)
    assert moved.game.version == 1
    assert Move.objects.get(game=game).move == {**lesson.MOVES[0], "seat": 0}


def test_the_seat_page_shows_the_guide_and_marks_its_card_and_cell(client: Client) -> None:
    path = start(client)["Location"]
    body = client.get(path).content.decode()
    box = body[body.index('id="lesson"'):body.index("</section>", body.index('id="lesson"'))]
    assert "Lesson, step 1 of 5: A path from the start" in box
    assert "Choose Tunnel E-W in your hand and play it: place at (1, 0), upright." in box
    assert "the cell (1, 0) is framed and starred" in box
    assert 'class="hand-card path lesson-card" data-card="p05"' in body
    assert "★ the guide&#x27;s card" in body or "★ the guide's card" in body
    assert re.search(r'class="cell target pointed" data-cell="1,0"[^>]*aria-label="[^"]*'
                     r"the guide&#x27;s cell", body)
    # A move the lesson does not allow, through the page: 422, said in the seat's words.
    off = client.post(path + "move", form_post({"type": "pass", "card": "a17"}, 0))
    assert off.status_code == 422 and "This is a lesson" in off.content.decode()
    made = client.post(path + "move", form_post(lesson.MOVES[0], 0))
    assert made.status_code == 302
    waiting = client.get(path + "live").content.decode()
    assert "Your tunnel is joined to the start" in waiting and "Bert and Carla play now" in waiting


def test_the_guide_is_only_on_the_learners_page(client: Client) -> None:
    g = make_game(players=3, seed=lesson.SEED, script=lesson.MOVES)
    assert 'id="lesson"' in client.get(g.page(0)).content.decode()
    assert 'id="lesson"' not in client.get(g.page(1)).content.decode()
    plain = make_game(players=3, seed=lesson.SEED)
    assert 'id="lesson"' not in client.get(plain.page(0)).content.decode()


def test_idle_lessons_are_swept_with_everything_of_theirs(client: Client) -> None:
    start(client)
    start(client)
    old, fresh = Game.objects.order_by("pk")
    seat_move(learner(old), 0, lesson.MOVES[0])
    other = make_game(players=3, seed=1).game
    long_ago = timezone.now() - lessons.LESSON_KEPT - timedelta(hours=1)
    Game.objects.filter(pk__in=[old.pk, other.pk]).update(updated_at=long_ago)
    assert lessons.sweep_idle_lessons(timezone.now()) == 1
    assert set(Game.objects.values_list("pk", flat=True)) == {fresh.pk, other.pk}
    assert not Seat.objects.filter(game_id=old.pk).exists()
    assert not Move.objects.filter(game_id=old.pk).exists()
    assert Lesson.objects.get().game_id == fresh.pk
