"""A takeover is a point in the seat's history, not a new name for what came before it
(issue 39, item 1): the log, the table talk, the turn emails, the replay, the record and
the API name whoever held the seat when a line happened; "forget me" still turns the
erased player into "a former player" everywhere."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.game.core.game import Game
from games.handover.services import opening, takeover
from games.home.services.forget import forget_player
from games.moves.services import seat_services as services
from games.records.services.game_record import game_record
from games.records.services.replay_steps import made_by, step_context, tell
from games.seats.core.seat import Seat
from tests.handover.test_takeover import pass_move
from tests.handover_support import open_row
from tests.support import GameWithLinks, make_game, own_link_emailed_to


def log_lines(body: str) -> list[str]:
    """The seat page's log, oldest first, as its text."""
    found = re.search(r'<ul class="log-lines">(.*?)</ul>', body, re.S)
    assert found is not None
    items = re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in reversed(items)]


def talk_lines(body: str) -> list[str]:
    found = re.search(r'<ul class="messages" id="talk-messages">(.*?)</ul>', body, re.S)
    assert found is not None
    # A line's own text, without the report form under it.
    items = [re.sub(r"<details.*?</details>", "", item, flags=re.S)
             # not the mark where the unread lines begin (games.talk.services.reading)
             for item in re.findall(r'<li(?! class="unread-from")[^>]*>(.*?)</li>',
                                    found.group(1), re.S)]
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", item)).split()) for item in items]


def hal_leaves_and_vera_takes_over(client: Client, commit: Any) -> tuple[GameWithLinks, str]:
    """Ann, Hal and Cy: Hal moves and talks, leaves (a bot plays his next turn), Vera takes
    the seat over and moves and talks. Vera's own link."""
    g = make_game(players=3, seed=5)
    Seat.objects.filter(pk=g.seats[1].pk).update(player_name="Hal", email="hal@example.com")
    with commit():
        pass_move(client, g.page(0))  # move 1: Ann
        pass_move(client, g.page(1))  # move 2: Hal
        services.post_message(Seat.objects.get(pk=g.seats[1].pk), "Sorry, I must go.")
        opening.open_seat(g.seats[1].pk)
        pass_move(client, g.page(2))  # move 3: Cy
        pass_move(client, g.page(0))  # move 4: Ann; move 5: the bot, for Hal
    assert g.refresh().version == 5
    with commit():
        takeover.take_over(open_row(g.seats[1].pk).pk, takeover.Newcomer(
            name="Vera", email="vera@example.org", language="en"))
    vera = own_link_emailed_to("vera@example.org")
    with commit():
        pass_move(client, g.page(2))  # move 6: Cy
        pass_move(client, g.page(0))  # move 7: Ann
        pass_move(client, vera)  # move 8: Vera
        services.post_message(Seat.objects.get(pk=g.seats[1].pk), "Hello, I am new here.")
    assert g.refresh().version == 8
    return g, vera


def moves_of(lines: list[str]) -> dict[int, str]:
    return {int(m.group(1)): m.group(2) for line in lines
            if (m := re.match(r"Move (\d+): (.*)", line))}


@pytest.mark.django_db
def test_the_page_names_who_held_the_seat_at_each_line(client: Client, commit: Any) -> None:
    g, vera = hal_leaves_and_vera_takes_over(client, commit)
    for path in (g.page(0), vera):
        body = client.get(path).content.decode()
        moves = moves_of(log_lines(body))
        assert moves[2].startswith("Hal passed")
        assert moves[5].startswith("Hal (bot) ")
        assert moves[8].startswith("Vera passed")
        assert "Vera took over seat 2 from Hal." in log_lines(body)
        talk = talk_lines(body)
        assert talk[0].startswith("Hal ") and talk[0].endswith("Sorry, I must go.")
        assert talk[1].startswith("Vera ") and talk[1].endswith("Hello, I am new here.")


@pytest.mark.django_db
def test_the_replay_the_record_and_the_api_keep_who_held_the_seat(client: Client,
                                                                  commit: Any) -> None:
    g, vera = hal_leaves_and_vera_takes_over(client, commit)
    story = tell(g.refresh())
    assert step_context(story, 2)["sentences"][0].startswith("Hal passed")
    assert made_by(story, story.moves[1]) == "Hal"
    assert made_by(story, story.moves[4]) == "Hal (bot)"
    assert made_by(story, story.moves[7]) == "Vera"
    assert [s.name for s in step_context(story, 2)["seats"]][1] == "Hal"
    assert [s.name for s in step_context(story, 8)["seats"]][1] == "Vera"
    record = game_record(g.refresh())
    assert [m.get("name") for m in record["made_by"]] == [
        "Player0", "Hal", "Player2", "Player0", "Hal", "Player2", "Player0", "Vera"]
    assert record["seats"]["names"][1] == "Vera"
    assert record["seats"]["holders"][1] == [
        {"name": "Hal", "bot": False, "until_version": 2},
        {"name": "Hal", "bot": True, "until_version": 5},
        {"name": "Vera", "bot": False, "until_version": None}]
    answer = client.get("/api" + vera).json()
    seat = answer["players"][1]
    assert seat["name"] == "Vera" and not seat["bot"]
    assert [(h["name"], h["bot"], h["until_version"]) for h in seat["holders"]] == [
        ("Hal", False, 2), ("Hal", True, 5)]
    # The log's event of move 2 (Hal's pass) comes before Hal's time ended.
    log = answer["view"]["log"]
    hal_pass = next(i for i, e in enumerate(log) if e.get("type") == "pass" and e["seat"] == 1)
    assert hal_pass < seat["holders"][0]["until_log"]
    assert "holders" not in answer["players"][0]  # nobody else left: as before


@pytest.mark.django_db
def test_a_turn_email_written_after_the_takeover_names_the_one_who_moved(
        client: Client, commit: Any) -> None:
    g = make_game(players=3, seed=5)
    Seat.objects.filter(pk=g.seats[1].pk).update(player_name="Hal", email="hal@example.com")
    with commit():
        pass_move(client, g.page(0))
    mail.outbox.clear()
    with commit(worker=False):  # Cy's turn email waits for the beat...
        pass_move(client, g.page(1))
    with commit(worker=False):  # ... while Hal leaves and Vera takes over
        opening.open_seat(g.seats[1].pk)
        takeover.take_over(open_row(g.seats[1].pk).pk, takeover.Newcomer(
            name="Vera", email="vera@example.org", language="en"))
    with commit():
        pass
    [turn] = [m for m in mail.outbox if "p2@example.com" in m.to and "your turn" in m.subject]
    # (one email: another seat changing hands sends Cy none more: issue 39, item 5)
    assert "Hal passed" in turn.body and "Vera passed" not in turn.body
    assert "Vera took over seat 2 from Hal" in turn.body


@pytest.mark.django_db
def test_forget_me_wins_over_history(client: Client, commit: Any) -> None:
    g, vera = hal_leaves_and_vera_takes_over(client, commit)
    forget_player("hal@example.com")
    body = client.get(g.page(0)).content.decode()
    lines = log_lines(body)
    moves = moves_of(lines)
    assert moves[2].startswith("a former player passed")
    assert moves[5].startswith("a former player (bot) ")
    assert moves[8].startswith("Vera passed")
    assert "Vera took over seat 2 from a former player." in lines
    assert not re.search(r"\bHal\b", body)
    talk = talk_lines(body)
    assert talk[0].startswith("a former player ")
    record = game_record(Game.objects.get(pk=g.game.pk))
    assert not re.search(r"\bHal\b", str(record))
    api = client.get("/api" + vera).json()
    assert not re.search(r"\bHal\b", str(api))
    story = tell(g.refresh())
    assert made_by(story, story.moves[1]) == "a former player"


@pytest.mark.django_db
def test_each_one_s_data_holds_their_own_words_at_the_table(client: Client,
                                                            commit: Any) -> None:
    from games.home.services.export import export_player_data

    hal_leaves_and_vera_takes_over(client, commit)
    hal = [line["text"] for line in export_player_data("hal@example.com")["table_talk"]]
    vera = [line["text"] for line in export_player_data("vera@example.org")["table_talk"]]
    assert hal == ["Sorry, I must go."]
    assert vera == ["Hello, I am new here."]
