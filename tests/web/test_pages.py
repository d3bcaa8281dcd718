"""The HTML pages: seat page, its POST actions, setup and spectator pages."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from games import engine
from games.engine.types import CardView
from games.game.core.game import Game, Move
from games.game.core.talk_and_notices import Message
from games.seats.core.seat import Seat
from games.seatview.core.move_forms import symmetric
from tests.setup_support import HOST, set_up
from tests.support import GameWithLinks, move_for, page_moves, page_version, token_of


def first_option(body: str) -> dict[str, Any]:
    return page_moves(body)[0]


@pytest.mark.django_db
def test_seat_page_shows_role_hand_maze_and_exactly_the_legal_moves(
        client: Client, game: GameWithLinks) -> None:
    response = client.get(game.page(0))
    assert response.status_code == 200
    assert response["Cache-Control"].startswith("no-store")
    body = response.content.decode()
    state = game.game.state()
    role = "gold-digger" if state.roles[0] == "gold-digger" else "saboteur"
    assert f"<strong>{role}</strong>" in body
    assert '<svg class="maze cards-' in body and 'data-cell="8,-2"' in body
    for card in state.hands[0]:
        assert f'data-card="{card}"' in body
    offered = sorted(json.dumps(m, sort_keys=True) for m in page_moves(body))
    # Every legal move, once: a card that is the same turned round (a crossroads) is
    # offered upright only, since both placements are the same move for the player.
    hand: dict[str | None, CardView] = {c["id"]: c for c in engine.view(state, 0)["hand"]}
    distinct = [m for m in engine.legal_moves(state)
                if not (m.get("rotated") and symmetric(hand.get(m.get("card"), {})))]
    assert offered == sorted(json.dumps(m, sort_keys=True) for m in distinct)
    assert len(distinct) < len(engine.legal_moves(state))  # this hand has such a card
    assert "It is your turn." in body and "Deadline:" in body
    assert "Round 1 begins; Player0 plays first." in body


@pytest.mark.django_db
def test_other_seats_see_no_forms(client: Client, game: GameWithLinks) -> None:
    body = client.get(game.page(1)).content.decode()
    assert page_moves(body) == [] and "Player0 is to play." in body


@pytest.mark.django_db
def test_get_never_changes_anything(client: Client, game: GameWithLinks) -> None:
    before = (game.refresh().snapshot, game.game.updated_at)
    for url in [game.page(0), game.page(0) + "move", game.page(0) + "accept",
                game.page(0) + "rotate", game.api(0), game.api(0) + "moves"]:
        client.get(url)
    assert (game.refresh().snapshot, game.game.updated_at) == before
    assert not Move.objects.exists()
    assert client.get(game.page(0)).status_code == 200  # the link still works


@pytest.mark.django_db
def test_moves_need_the_csrf_token(game: GameWithLinks) -> None:
    client = Client(enforce_csrf_checks=True)
    body = client.get(game.page(0)).content.decode()
    move = json.dumps(first_option(body))
    assert client.post(game.page(0) + "move", {"version": 0, "move": move}).status_code == 403
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert token
    response = client.post(game.page(0) + "move", {
        "version": 0, "move": move, "csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 302 and game.refresh().version == 1


@pytest.mark.django_db
def test_after_a_move_the_page_says_what_happened(client: Client, game: GameWithLinks) -> None:
    body = client.get(game.page(0)).content.decode()
    move = next(m for m in page_moves(body) if m["type"] == "pass")
    response = client.post(game.page(0) + "move", {"version": page_version(body),
                                                   "move": json.dumps(move)}, follow=True)
    assert response.redirect_chain[-1][0].endswith(game.page(0) + "#what-happened")
    text = response.content.decode()
    assert 'id="what-happened"' in text and "Player0 passed, discarding" in text
    assert "It is your turn." not in text


@pytest.mark.django_db
def test_refused_moves_show_the_reason_and_keep_the_choice(client: Client,
                                                           game: GameWithLinks) -> None:
    body = client.get(game.page(0)).content.decode()
    chosen = json.dumps(first_option(body), sort_keys=True, separators=(",", ":"))
    client.post(game.page(0) + "move", {"version": 0, "move": chosen})
    game.refresh()
    # Stale: the same form again (a re-sent form, a second tab).
    stale = client.post(game.page(0) + "move", {"version": 0, "move": chosen})
    # Redirected to the page as it is now, so a reload cannot send the move again; the
    # reason in players' words (no "version").
    assert stale.status_code == 302 and stale["Location"].endswith("#what-happened")
    page = client.get(stale["Location"]).content.decode()
    assert "Someone played 1 move since you loaded this page, so yours was not made." in page
    assert "version" not in page.split('id="what-happened"')[1].split("</section>")[0]
    assert game.refresh().version == 1
    # Illegal: seat 1 is to act now; a place on an occupied cell.
    body = client.get(game.page(1)).content.decode()
    card = game.game.state().hands[1][0]
    bad = json.dumps({"type": "rockfall", "card": card, "x": 0, "y": 0})
    refused = client.post(game.page(1) + "move", {"version": 1, "move": bad})
    assert refused.status_code in (422, 400)
    assert "Your move was not made" in refused.content.decode()
    legal = json.dumps(page_moves(body)[-1], sort_keys=True, separators=(",", ":"))
    wrong_turn = client.post(game.page(0) + "move", {"version": 1, "move": legal})
    assert wrong_turn.status_code == 422
    assert "not your turn" in wrong_turn.content.decode()
    kept = client.post(game.page(1) + "move", {"version": 0, "move": legal})
    assert kept.status_code == 302
    shown = html.unescape(client.get(kept["Location"]).content.decode())
    kept_choice = (re.escape(f'value="{legal}"')
                   + r'( data-cell="[^"]*")?( selected| required checked)')
    assert re.search(kept_choice, shown), "the chosen move is not kept"
    unreadable = client.post(game.page(1) + "move", {"version": 1, "move": "{oops"})
    assert unreadable.status_code == 400
    assert game.refresh().version == 1


@pytest.mark.django_db
def test_accepting_is_a_post_and_starts_the_game_when_all_have(client: Client,
                                                               game_factory: Any) -> None:
    g = game_factory(players=3, start=False)
    body = client.get(g.page(0)).content.decode()
    assert "Accept and take my seat" in body and page_moves(body) == []
    for number in range(3):
        response = client.post(g.page(number) + "accept")
        assert response.status_code == 302
    assert g.refresh().status == Game.Status.ACTIVE
    assert "Accept and take my seat" not in client.get(g.page(0)).content.decode()


@pytest.mark.django_db
def test_table_talk(client: Client, game: GameWithLinks) -> None:
    response = client.post(game.page(2) + "say", {"text": "<b>dig east</b>"})
    assert response.status_code == 302 and response["Location"].endswith("#talk")
    body = client.get(game.page(0)).content.decode()
    assert "&lt;b&gt;dig east&lt;/b&gt;" in body and "<b>dig east" not in body
    assert client.post(game.page(2) + "say", {"text": ""}).status_code == 400
    assert Message.objects.count() == 1


@pytest.mark.django_db
def test_preferences_change_language_and_time_zone(client: Client, game: GameWithLinks) -> None:
    response = client.post(game.page(0) + "preferences",
                           {"time_zone": "Asia/Tokyo", "language": "it"})
    assert response.status_code == 302
    body = client.get(game.page(0)).content.decode()
    assert '<html lang="it">' in body and "(Asia/Tokyo)" in body
    # The seat's locale is for its own requests only, never left behind in the thread.
    assert timezone.get_current_timezone_name() == "UTC"
    assert translation.get_language() != "it"
    seat = Seat.objects.get(pk=game.seats[0].pk)
    assert (seat.time_zone, seat.language) == ("Asia/Tokyo", "it")
    client.post(game.page(0) + "preferences", {"time_zone": "Moon/Base", "language": "it"})
    assert Seat.objects.get(pk=seat.pk).time_zone == "Asia/Tokyo"


@pytest.mark.django_db
def test_spectator_page_is_off_by_default(client: Client, game: GameWithLinks,
                                          game_factory: Any) -> None:
    assert client.get(f"/watch/{game.game.public_id}/").status_code == 404
    open_game = game_factory(players=3, spectators_allowed=True)
    body = client.get(f"/watch/{open_game.game.public_id}/").content.decode()
    assert '<svg class="maze cards-' in body and "spectator" in body
    assert "data-card=" not in body and "csrfmiddlewaretoken" not in body
    for hand in open_game.game.state().hands:
        for card in hand:
            assert f'"{card}"' not in body


@pytest.mark.django_db
def test_setup_page_creates_a_game_and_shows_the_links_once(client: Client, commit: Any) -> None:
    assert client.get("/new/").status_code == 200
    data = {"name": "Office league", "ruleset": "base", "hours_per_move": 48,
            "seating": "order", "start": "now", "time_zone": "Europe/Amsterdam",
            "language": "nl", "option_base_gold_cards": '"diggers"',
            "option_base_sabotaged_get_no_gold": "false"}
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        data[f"player_{i}_name"] = name
        data[f"player_{i}_email"] = f"{name.lower()}@example.com"
    response = set_up(client, data, commit)
    assert response["Cache-Control"].startswith("no-store")
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and game.hours_per_move == 48
    assert game.options["gold_cards"] == "diggers"
    body = response.content.decode()
    links = re.findall(r'<a href="(http://127\.0\.0\.1:8000/play/[^"]+/)"', body)
    assert len(links) == 3
    seat = Seat.objects.get(number=1)
    assert (seat.player_name, seat.time_zone, seat.language) == ("Bob", "Europe/Amsterdam", "nl")
    assert client.get(links[1].replace("http://127.0.0.1:8000", "")).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "fragment"), [
    ({"player_2_name": "", "player_2_email": ""}, "need 3 to 10 players"),
    ({"player_1_email": ""}, "Player 2: give both a name and an email address"),
    ({"player_1_email": "ann@example.com"}, "different email"),
])
def test_setup_page_refuses_bad_input_and_creates_nothing(client: Client, change: dict[str, str],
                                                          fragment: str) -> None:
    data = {"name": "G", "ruleset": "base", "hours_per_move": 24, "seating": "random",
            "start": "accepted", "time_zone": "UTC", "language": "en", "host_email": HOST,
            "option_base_gold_cards": '"players"', "option_base_sabotaged_get_no_gold": "false"}
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        data[f"player_{i}_name"] = name
        data[f"player_{i}_email"] = f"{name.lower()}@example.com"
    data.update(change)
    response = client.post("/new/", data)
    assert response.status_code == 400 and fragment in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_lone_half_filled_row_is_named_not_called_no_player(client: Client) -> None:
    data = {"name": "G", "ruleset": "base", "hours_per_move": 24, "seating": "random",
            "start": "accepted", "time_zone": "UTC", "language": "en", "host_email": HOST,
            "bots": 2, "player_0_name": "Ann", "player_0_email": ""}
    body = client.post("/new/", data).content.decode()
    assert "Player 1: give both a name and an email address." in body
    assert "Add at least one player" not in body  # Ann was added; only her address is missing
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_seat_page_through_a_finished_game_shows_scores(client: Client,
                                                          game: GameWithLinks) -> None:
    state = game.game.state()
    moves = []
    while not state.finished:
        move = next((m for m in engine.legal_moves(state) if m["type"] != "place"),
                    engine.legal_moves(state)[0])
        moves.append(move)
        state = engine.apply(state, move)
    for number, move in enumerate(moves):
        move_for(game.game.pk, number, move)
    body = client.get(game.page(0)).content.decode()
    assert "Final scores" in body and "Rounds played" in body
    assert "The game is over. Winners:" in body
    assert token_of(game.page(0)) == game.tokens[0]


def test_a_seat_page_sends_no_referrer_and_is_never_stored(client: Client,
                                                           game: GameWithLinks) -> None:
    """The page's own CSS and links must not carry the seat's address anywhere."""
    response = client.get(f"/play/{game.tokens[0]}/")
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response["Cache-Control"]
    api = client.get(f"/api/play/{game.tokens[0]}/")
    assert api["Referrer-Policy"] == "no-referrer" and "no-store" in api["Cache-Control"]


def test_the_setup_page_names_options_in_words_not_raw_values(client: Client) -> None:
    body = client.get("/new/").content.decode()
    assert ">True<" not in body and ">False<" not in body and ">players<" not in body
    assert "one per gold-digger (at most 9)" in body
    assert "Players with a broken tool get gold" in body
    italian = client.get("/new/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "una per cercatore d&#x27;oro (al massimo 9)" in italian \
        or "una per cercatore d'oro (al massimo 9)" in italian


def test_home_and_setup_follow_the_browser_language_with_a_visible_switcher(
        client: Client) -> None:
    for url in ("/", "/new/"):
        german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert '<html lang="de">' in german
        assert 'action="/i18n/setlang/"' in german and ">Deutsch</option>" in german
        assert ">Italiano</option>" in german and ">Español</option>" in german
    chosen = client.post("/i18n/setlang/", {"language": "nl", "next": "/new/"})
    assert chosen.status_code == 302 and chosen["Location"] == "/new/"
    assert '<html lang="nl">' in client.get("/new/", HTTP_ACCEPT_LANGUAGE="de").content.decode()


def test_the_setup_page_proposes_the_page_s_language_for_the_players(client: Client) -> None:
    body = client.get("/new/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    players = re.search(r'<select name="language"[^>]*id="id_language".*?</select>', body, re.S)
    assert players is not None  # the players' language, not the page's switcher
    assert re.search(r'<option value="es"[^>]*selected', players.group(0))
    assert not re.search(r'<option value="en"[^>]*selected', players.group(0))
