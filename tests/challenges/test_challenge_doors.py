"""Challenges through their doors: the JSON twins (every answer without the other side's
address, 4xx with nothing changed, 429 with Retry-After), the home's forms with the Django
test client (the refused form again with its reason), and the public page's "Challenge"
button that leads to the home's form."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.challenges.core.challenge_rows import Challenge, ChallengeBlock, ChallengesClosed
from games.game.core.game import Game
from games.people.core.home_links import home_link
from games.tables.services import naming
from tests.support import token_of, without_csrf

pytestmark = pytest.mark.django_db
ANN, BOB = "ann.secret@example.org", "bob.hidden@example.org"


@pytest.fixture
def tokens() -> dict[str, str]:
    found = {}
    for address, name in ((ANN, "Ann"), (BOB, "Bob")):
        found[name] = token_of(home_link(address))
        naming.choose_name(address, name)
    return found


def post(client: Client, url: str, body: Any = None, method: str = "post") -> Any:
    data = "" if body is None else json.dumps(body)
    return getattr(client, method)(url, data=data, content_type="application/json")


def test_the_api_challenges_answers_and_lists_without_addresses(
        client: Client, tokens: dict[str, str], commit: Any) -> None:
    ann, bob = tokens["Ann"], tokens["Bob"]
    with commit():
        made = post(client, f"/api/me/{ann}/challenges",
                    {"to": "Bob", "ruleset": "saboteur2", "players": 2, "clock": "day"})
    assert made.status_code == 201
    shown = made.json()
    assert shown["players"] == [{"name": "Bob", "answer": None, "you": False}]
    assert shown["status"] == "open" and shown["clock"] == "day"
    listed = client.get(f"/api/me/{bob}/challenges")
    assert listed.status_code == 200
    [received] = listed.json()["received"]
    assert received["by"] == "Ann" and received["your_answer"] is None
    assert listed.json()["takes_challenges"] is True
    with commit():
        accepted = post(client, f"/api/me/{bob}/challenges/{shown['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["started"]
    game = Game.objects.get(public_id=accepted.json()["game"])
    assert game.seats.count() == 2
    # The game is on both homes, each with its own link.
    for token in (ann, bob):
        games = client.get(f"/api/me/{token}/").json()["games"]
        assert [row["game"] for row in games] == [game.public_id] and games[0]["link"]
    for token, other in ((ann, BOB), (bob, ANN)):
        text = client.get(f"/api/me/{token}/challenges").content.decode()
        assert other not in text and other.split("@")[0] not in text


def test_refuse_with_a_block_then_unblock_through_the_api(
        client: Client, tokens: dict[str, str], commit: Any) -> None:
    ann, bob = tokens["Ann"], tokens["Bob"]
    with commit():
        made = post(client, f"/api/me/{ann}/challenges", {"to": "Bob"}).json()
    bad = post(client, f"/api/me/{bob}/challenges/{made['id']}/refuse", {"block": "yes"})
    assert bad.status_code == 400 and not ChallengeBlock.objects.exists()
    with commit():
        refused = post(client, f"/api/me/{bob}/challenges/{made['id']}/refuse",
                       {"block": True})
    assert refused.status_code == 200 and refused.json()["status"] == "refused"
    again = post(client, f"/api/me/{ann}/challenges", {"to": "Bob"})
    assert again.status_code == 404 and again.json()["error"]["code"] == "cannot_challenge"
    assert client.get(f"/api/me/{bob}/challenges").json()["blocked"][0]["name"] == "Ann"
    gone = client.delete(f"/api/me/{bob}/blocks/Ann")
    assert gone.status_code == 200 and gone.json() == {"blocked": False, "name": "Ann"}
    assert post(client, f"/api/me/{bob}/blocks/Ann").json()["blocked"] is True
    assert post(client, f"/api/me/{bob}/blocks/Ann/unblock").status_code == 200
    assert post(client, f"/api/me/{bob}/blocks/Ann/unblock").status_code == 404
    assert post(client, f"/api/me/{bob}/blocks/Nobody").status_code == 404
    closed = post(client, f"/api/me/{bob}/challenges/settings", {"takes_challenges": False})
    assert closed.json() == {"takes_challenges": False} and ChallengesClosed.objects.exists()
    with commit():
        refused_again = post(client, f"/api/me/{ann}/challenges", {"to": "Bob"})
    assert refused_again.status_code == 404


@pytest.mark.parametrize(("body", "status"), [
    (None, 400), ([], 400), ({"to": ["Bob"], "players": True}, 400),
    ({"to": "Bob", "clock": "fortnight"}, 400), ({"to": "Ann"}, 400),
    ({"to": "Nobody"}, 404), ({"to": {"name": "Bob"}}, 400),
])
def test_bad_requests_are_4xx_and_change_nothing(client: Client, tokens: dict[str, str],
                                                 body: Any, status: int) -> None:
    answer = post(client, f"/api/me/{tokens['Ann']}/challenges", body)
    assert answer.status_code == status and answer.json()["error"]["message"]
    assert not Challenge.objects.exists()


def test_answers_to_what_is_not_yours(client: Client, tokens: dict[str, str]) -> None:
    made = post(client, f"/api/me/{tokens['Ann']}/challenges", {"to": "Bob"}).json()
    own = post(client, f"/api/me/{tokens['Ann']}/challenges/{made['id']}/accept")
    assert own.status_code == 404  # the challenger answers nothing
    assert post(client, f"/api/me/{tokens['Bob']}/challenges/999/accept").status_code == 404
    assert client.get(f"/api/me/{tokens['Bob']}/challenges/{made['id']}/accept"
                      ).status_code == 405
    assert client.get("/api/me/nohome000000000000000000/challenges").status_code == 404
    assert Challenge.objects.get().status == "open"


@override_settings(CHALLENGES_PER_DAY=1)
def test_past_the_daily_cap_the_api_says_429_with_retry_after(
        client: Client, tokens: dict[str, str]) -> None:
    home_link("cy@example.org")
    naming.choose_name("cy@example.org", "Cy")
    assert post(client, f"/api/me/{tokens['Ann']}/challenges", {"to": "Bob"}
                ).status_code == 201
    capped = post(client, f"/api/me/{tokens['Ann']}/challenges", {"to": "Cy"})
    assert capped.status_code == 429 and int(capped["Retry-After"]) > 0
    assert capped.json()["error"]["code"] == "too_many_challenges"
    assert Challenge.objects.count() == 1


# ---- the pages ----------------------------------------------------------------------------


def test_the_home_form_challenges_and_the_challenged_home_answers(
        client: Client, tokens: dict[str, str], commit: Any) -> None:
    ann, bob = tokens["Ann"], tokens["Bob"]
    page = client.get(f"/me/{ann}/").content.decode()
    assert 'id="challenge-form"' in page and 'name="clock"' in page
    with commit():
        sent = client.post(f"/me/{ann}/challenges", {
            "to": "Bob\n", "ruleset": "base", "players": "", "clock": "bank_3_days",
            "hours_per_move": "24", "language": "en"})
    assert sent.status_code == 302 and sent["Location"].endswith("#challenges")
    home = client.get(f"/me/{bob}/").content.decode()
    assert "Ann challenges you" in home and ANN not in home
    made = Challenge.objects.get()
    assert made.clock_preset == "bank_3_days" and made.seats == 3
    answered = client.post(f"/me/{bob}/challenges/answer",
                           {"challenge": str(made.pk), "action": "accept"})
    assert answered.status_code == 302
    made.refresh_from_db()
    assert made.status == "accepted" and made.table is not None
    assert "table" in client.get(f"/me/{ann}/").content.decode()


def test_a_refused_form_is_the_home_again_with_the_reason(
        client: Client, tokens: dict[str, str]) -> None:
    refused = client.post(f"/me/{tokens['Ann']}/challenges",
                          {"to": "Nobody", "hours_per_move": "24"})
    assert refused.status_code == 404
    body = without_csrf(refused.content.decode())
    assert "No player takes challenges under the name" in body
    assert re.search(r"<textarea[^>]*>Nobody</textarea>", body)  # the names kept
    assert not Challenge.objects.exists()
    bad = client.post(f"/me/{tokens['Bob']}/challenges/answer",
                      {"challenge": "x", "action": "accept"})
    assert bad.status_code == 404


@override_settings(CHALLENGES_PER_DAY=1)
def test_past_the_daily_cap_the_page_says_so_with_429(
        client: Client, tokens: dict[str, str]) -> None:
    home_link("cy@example.org")
    naming.choose_name("cy@example.org", "Cy")
    client.post(f"/me/{tokens['Ann']}/challenges", {"to": "Bob", "hours_per_move": "24"})
    capped = client.post(f"/me/{tokens['Ann']}/challenges",
                         {"to": "Cy", "hours_per_move": "24"})
    assert capped.status_code == 429 and int(capped["Retry-After"]) > 0
    assert "A player may challenge 1 players a day" in capped.content.decode()


def test_blocks_and_the_switch_on_the_home(client: Client, tokens: dict[str, str]) -> None:
    bob = tokens["Bob"]
    made = post(client, f"/api/me/{tokens['Ann']}/challenges", {"to": "Bob"}).json()
    client.post(f"/me/{bob}/challenges/answer",
                {"challenge": str(made["id"]), "action": "block"})
    home = client.get(f"/me/{bob}/").content.decode()
    assert "Unblock Ann" in home
    block = ChallengeBlock.objects.get()
    client.post(f"/me/{bob}/challenges/unblock", {"block": str(block.pk)})
    assert not ChallengeBlock.objects.exists()
    client.post(f"/me/{bob}/challenges/setting", {"takes": "0"})
    assert ChallengesClosed.objects.exists()
    assert "Take challenges" in client.get(f"/me/{bob}/").content.decode()


def test_the_public_page_button_leads_to_the_home_form(
        client: Client, tokens: dict[str, str]) -> None:
    page = client.get("/players/Bob/").content.decode()
    assert "Challenge Bob" in page and BOB not in page
    link = home_link(ANN)
    went = client.post("/players/Bob/challenge", {"home": link})
    assert went.status_code == 302
    assert went["Location"] == f"/me/{tokens['Ann']}/?challenge=Bob#challenges"
    form = client.get(went["Location"]).content.decode()
    assert re.search(r"<textarea[^>]*>Bob</textarea>", form)
    wrong = client.post("/players/Bob/challenge", {"home": "https://x.test/me/nothing/"})
    assert wrong.status_code == 400 and "not the link of a home" in wrong.content.decode()
    assert client.post("/players/Nobody/challenge", {"home": link}).status_code == 404
    assert client.get("/players/Bob/challenge").status_code == 405
    assert not Challenge.objects.exists()


def test_the_challenged_reads_it_in_the_language_of_their_home(
        client: Client, tokens: dict[str, str], commit: Any) -> None:
    client.post(f"/me/{tokens['Bob']}/preferences", {"language": "it", "time_zone": "UTC"})
    with commit():
        post(client, f"/api/me/{tokens['Ann']}/challenges", {"to": "Bob", "clock": "day"})
    [letter] = [m for m in mail.outbox if m.to == [BOB]]
    assert letter.subject == "Un giocatore ti sfida a una partita di Saboteur"
    assert "Ann ti sfida a una partita di Saboteur per email." in str(letter.body)
    home = client.get(f"/me/{tokens['Bob']}/").content.decode()
    assert "Ann ti sfida" in home and "Rifiuta e blocca Ann" in home
