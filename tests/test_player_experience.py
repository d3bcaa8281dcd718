"""What a new player trips over (issue 13): the friendly error pages, the rules at hand on
the seat page, the house rulings, and defects fixed earlier that had no test."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from games.play import services
from games.web.views import errors
from tests.support import GameWithLinks

pytestmark = pytest.mark.django_db


def text_of(body: bytes) -> str:
    return html.unescape(body.decode())


# ---- the friendly 404 and 500 pages -------------------------------------------------------

def test_a_replaced_seat_link_says_so_and_offers_to_email_the_links(
        client: Client, game: GameWithLinks) -> None:
    dead = game.page(1)
    services.rotate_link(game.seats[1].pk)
    answer = client.get(dead)
    assert answer.status_code == 404
    body = text_of(answer.content)
    assert "it may have been replaced by a newer one" in body
    assert "use the link in your newest email" in body
    assert '<a href="/#lost-links">Ask for your links</a>' in body
    # The link leads to the form that emails the links.
    home = client.get("/").content.decode()
    assert 'id="lost-links"' in home and 'action="/links/"' in home


def test_the_404_of_a_seat_link_speaks_the_readers_language(client: Client) -> None:
    body = text_of(client.get("/play/no-such-seat/", HTTP_ACCEPT_LANGUAGE="it").content)
    assert "Chiedi i tuoi link" in body and "Ask for your links" not in body


def test_an_address_that_is_no_seat_link_gets_the_plain_404(client: Client) -> None:
    answer = client.get("/no/such/page/")
    body = text_of(answer.content)
    assert answer.status_code == 404
    assert "There is nothing at this address." in body
    assert "Ask for your links" not in body


def test_the_500_page_says_nothing_was_changed_in_every_language() -> None:
    answer = errors.server_error(RequestFactory().get("/play/whatever/"))
    body = text_of(answer.content)
    assert answer.status_code == 500
    assert "Something went wrong on our side; nothing was changed." in body
    for words in ("non è cambiato nulla", "er is niets veranderd", "no se cambió nada",
                  "nichts wurde geändert"):
        assert words in body
    assert '<a href="/">' in body


def test_a_view_that_breaks_answers_with_the_500_page(settings: Any) -> None:
    from django.urls import path

    def broken(request: HttpRequest) -> HttpResponse:
        raise RuntimeError("boom")

    from saboteur_site import urls
    urlconf = type("Urls", (), {"urlpatterns": [path("broken/", broken), *urls.urlpatterns],
                                "handler500": urls.handler500})
    settings.ROOT_URLCONF = urlconf
    answer = Client(raise_request_exception=False).get("/broken/")
    assert answer.status_code == 500
    assert "Something went wrong on our side" in text_of(answer.content)


# ---- "How to play" on the seat page, always ----------------------------------------------

def rules_links(body: str) -> list[str]:
    import re
    return re.findall(r'<a class="rules-link" href="([^"]+)">How to play</a>', body)


def test_the_seat_page_links_the_rules_before_the_game_starts(
        client: Client, game_factory: Any) -> None:
    waiting = game_factory(players=3, start=False)
    body = client.get(waiting.page(0)).content.decode()
    assert "The game starts when every player has accepted" in body or "invited" in body
    assert rules_links(body) == ["/rules/base/?lang=en"]


@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_the_seat_page_links_its_own_rules_whatever_the_role(
        client: Client, game_factory: Any, ruleset: str) -> None:
    started = game_factory(players=4, seed=3, ruleset=ruleset)
    for number in range(4):
        body = client.get(started.page(number)).content.decode()
        assert rules_links(body) == [f"/rules/{ruleset}/?lang=en"], number
    assert client.get(f"/rules/{ruleset}/").status_code == 200


# ---- the house rulings and Saboteur 2's cards on the rules page ---------------------------

def rulings(body: str) -> list[str]:
    import re
    section = body.split('<section id="rulings">', 1)[1].split("</section>", 1)[0]
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", section, re.S)]


def test_the_base_rules_page_states_the_house_rulings_a_player_needs(client: Client) -> None:
    body = client.get("/rules/base/").content.decode()
    assert "docs/RULES.md" not in body
    found = rulings(body)
    assert 3 <= len(found) <= 8
    assert any("seat order" in r for r in found)
    assert any("against the order of play" in r for r in found)
    assert any("largest amount below it" in r for r in found)
    assert not any("ladder" in r or "profiteer" in r for r in found)
    assert 'id="expansion-cards"' not in body


def test_the_saboteur2_rules_page_explains_its_cards_and_rulings(client: Client) -> None:
    body = client.get("/rules/saboteur2/").content.decode()
    found = rulings(body)
    assert 3 <= len(found) <= 8
    assert "A ladder may not be placed next to a goal card." in found
    assert "The profiteer always wins, even when nobody else does." in found
    assert any("a crystal removed by a rockfall no longer counts" in r for r in found)
    assert not any("largest amount below it" in r for r in found)
    cards = html.unescape(body.split('<section id="expansion-cards">', 1)[1].split("</section>")[0])
    for opening in ("Doors:", "Ladders:", "Crystals:", "Theft:"):
        assert f"<li>{opening}" in cards


@pytest.mark.parametrize(("lang", "words"), [
    ("it", ("Una scala non si può posare accanto a una carta destinazione.", "Furto:")),
    ("nl", ("Een ladder mag niet naast een doelkaart worden gelegd.", "Diefstal:")),
    ("es", ("Una escalera no se puede poner al lado de una carta de meta.", "Hurto:")),
    ("de", ("Eine Leiter darf nicht neben eine Zielkarte gelegt werden.", "Diebstahl:"))])
def test_the_rulings_are_in_the_readers_language(client: Client, lang: str,
                                                 words: tuple[str, ...]) -> None:
    body = html.unescape(client.get(f"/rules/saboteur2/?lang={lang}").content.decode())
    for text in words:
        assert text in body
    assert "House rulings" not in body and "The profiteer always wins" not in body
