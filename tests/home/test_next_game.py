"""The next game in one tap (issue 48, item 1): once the move is made, the seat page
offers "Next game waiting for you (n)", the most urgent (nearest deadline) first, through
the home's own link, which redirects; no seat page carries another seat's link; the home
and the digest lead through the same chain; a setting on the home turns it off."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.game.core.game import EmailMode, Game
from games.mail.services import reminder_sweeps
from games.seats.core.links import token_of_seat
from games.seats.core.seat import Seat
from tests.home.support import ANN, AnnsGames
from tests.home.support import anns_games as anns_tables

pytestmark = pytest.mark.django_db

NEXT_BUTTON = re.compile(r"Next game waiting for you \((\d+)\)")


def anns_games() -> AnnsGames:
    """Ann's games, her home made (as her first email makes it)."""
    games = anns_tables()
    assert games.token
    return games


def anns_page(game: Game) -> str:
    return f"/play/{token_of_seat(Seat.objects.get(game=game, email=ANN))}/"


def next_form(body: str) -> tuple[str, dict[str, str]]:
    """The button's form: where it posts and its hidden fields."""
    form = body[body.index('id="next-game"'):]
    form = form[:form.index("</form>")]
    action = re.search(r'action="([^"]+)"', form)
    assert action is not None
    return action.group(1), dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_after_the_move_the_seat_page_leads_to_the_nearest_deadline_first(
        client: Client) -> None:
    games = anns_games()
    body = client.get(anns_page(games.waiting)).content.decode()
    found = NEXT_BUTTON.search(body)
    assert found is not None and found.group(1) == "2"  # Soon and Later wait for her
    action, fields = next_form(body)
    assert action == f"/me/{games.token}/next"  # through her home, not another seat's link
    answer = client.post(action, fields)
    assert answer.status_code == 302 and answer["Location"] == anns_page(games.soon)
    # From there (her turn at Soon: no button until she moves) the chain goes on to Later.
    assert NEXT_BUTTON.search(client.get(anns_page(games.soon)).content.decode()) is None
    after_soon = client.post(action, {"from": games.soon.public_id})
    assert after_soon["Location"] == anns_page(games.later)


def test_no_seat_page_carries_another_seats_link(client: Client) -> None:
    games = anns_games()
    others = {token_of_seat(seat) for seat in Seat.objects.exclude(game=games.waiting)
              .exclude(email="")}
    body = client.get(anns_page(games.waiting)).content.decode()
    assert NEXT_BUTTON.search(body) is not None
    assert not [token for token in others if token in body]


def test_with_nothing_else_waiting_there_is_no_button_and_the_home_says_so(
        client: Client) -> None:
    games = anns_games()
    for game in (games.soon, games.later):
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, actor=None)
    assert NEXT_BUTTON.search(client.get(anns_page(games.waiting)).content.decode()) is None
    answer = client.post(f"/me/{games.token}/next", {"from": games.waiting.public_id},
                         follow=True)
    assert "No other game is waiting for you." in answer.content.decode()


def test_the_home_offers_the_same_chain_and_a_setting_turns_it_off(client: Client) -> None:
    games = anns_games()
    home = client.get(f"/me/{games.token}/").content.decode()
    found = NEXT_BUTTON.search(home)
    assert found is not None and found.group(1) == "2"
    action, _fields = next_form(home)
    assert client.post(action)["Location"] == anns_page(games.soon)
    saved = client.post(f"/me/{games.token}/next/setting", {"offered": "0"}, follow=True)
    assert "button is hidden" in saved.content.decode()
    assert NEXT_BUTTON.search(saved.content.decode()) is None
    assert NEXT_BUTTON.search(client.get(anns_page(games.waiting)).content.decode()) is None
    client.post(f"/me/{games.token}/next/setting", {"offered": "1"})
    assert NEXT_BUTTON.search(client.get(anns_page(games.waiting)).content.decode())


def test_a_get_of_the_chain_changes_nothing_and_an_unknown_home_is_404(
        client: Client) -> None:
    games = anns_games()
    before = list(Game.objects.values_list("pk", "version", "actor"))
    assert client.get(f"/me/{games.token}/next")["Location"] == anns_page(games.soon)
    assert list(Game.objects.values_list("pk", "version", "actor")) == before
    assert client.post("/me/" + "x" * 43 + "/next").status_code == 404


def digest_to_ann(games: AnnsGames, commit: Any, clock: Any) -> str:
    Seat.objects.filter(email=ANN).update(email_mode=EmailMode.DAILY_DIGEST)
    clock.shift(timedelta(days=1))
    with commit():
        reminder_sweeps.sweep_digests()
    [digest] = [m for m in mail.outbox if ANN in m.to and "waiting" in m.subject]
    return str(digest.body)


def test_the_digest_links_to_the_same_chain(client: Client, commit: Any, clock: Any) -> None:
    games = anns_games()
    body = digest_to_ann(games, commit, clock)
    link = re.search(r"most urgent first: (\S+)", body)
    assert link is not None and link.group(1).endswith(f"/me/{games.token}/next")
    path = link.group(1)[link.group(1).index("/me/"):]
    assert client.get(path)["Location"] == anns_page(games.soon)


def test_the_digest_leaves_the_chain_out_when_it_is_turned_off(
        client: Client, commit: Any, clock: Any) -> None:
    games = anns_games()
    client.post(f"/me/{games.token}/next/setting", {"offered": "0"})
    assert "most urgent first" not in digest_to_ann(games, commit, clock)


def test_the_json_home_counts_the_games_waiting_and_names_the_chain(client: Client) -> None:
    games = anns_games()
    answer = client.get(f"/api/me/{games.token}/").json()
    assert answer["next_game"] == {"waiting": 2, "url": f"/me/{games.token}/next"}
