"""What a new player trips over: the friendly error pages, the rules at hand on
the seat page, the house rulings, and defects fixed earlier that had no test."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from games.engine.types import Move
from games.moves.services import seat_services as services
from games.site import error_pages
from tests.support import GameWithLinks, seat_move

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
    answer = error_pages.server_error(RequestFactory().get("/play/whatever/"))
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


def expansion_cards(body: str) -> dict[str, str]:
    """The "New in Saboteur 2" list as {name before the colon: the explanation after it}."""
    import re
    section = html.unescape(
        body.split('<section id="expansion-cards">', 1)[1].split("</section>", 1)[0])
    items = re.findall(r"<li>(.*?)</li>", section, re.S)
    return dict(item.split(": ", 1) for item in items)


# Each Saboteur 2 action card (named as the game names it) and what its explanation must
# say, as the engine enforces it (docs/RULES.md, games/engine/rules/saboteur2.py).
S2_ACTIONS = {
    "theft": ("steal a nugget",),
    "hands_off": ("remove a theft card", "any player"),
    "swap_hand": ("exchange your hand with another player", "they draw a card",
                  "you draw none"),
    "inspection": ("another player's dwarf card", "only you"),
    "swap_hats": ("yourself included", "face down", "set aside", "only they see"),
    "trapped": ("yourself included", "cannot place path cards", "no nuggets",
                "does not steal"),
    "free_at_last": ("remove a trapped card", "any player"),
}


def test_the_saboteur2_rules_page_explains_every_action_card(client: Client) -> None:
    from games.seatview.core import words
    explained = expansion_cards(client.get("/rules/saboteur2/").content.decode())
    for action, phrases in S2_ACTIONS.items():
        name = words.ACTIONS[action]()
        assert name in explained, name
        for phrase in phrases:
            assert phrase in explained[name], (name, phrase)


def test_the_saboteur2_action_cards_are_explained_in_italian(client: Client) -> None:
    from django.utils import translation

    from games.seatview.core import words
    explained = expansion_cards(client.get("/rules/saboteur2/?lang=it").content.decode())
    with translation.override("it"):
        names = {action: words.ACTIONS[action]() for action in S2_ACTIONS}
    assert names["trapped"] == "Trappola" and names["free_at_last"] == "Fuga"
    assert set(names.values()) <= set(explained)
    assert "non può posare carte percorso" in explained["Trappola"]
    assert "togli una carta Trappola" in explained["Fuga"]
    assert "carta nano di un altro giocatore" in explained["Ispezione"]


@pytest.mark.parametrize(("lang", "words"), [
    ("it", ("Una scala non si può posare accanto a una carta di destinazione.", "Furto:")),
    ("nl", ("Een ladder mag niet naast een doelkaart worden gelegd.", "Diefstal:")),
    ("es", ("Una escalera no se puede poner al lado de una carta de meta.", "Hurto:")),
    ("de", ("Eine Leiter darf nicht neben eine Zielkarte gelegt werden.", "Diebstahl:"))])
def test_the_rulings_are_in_the_readers_language(client: Client, lang: str,
                                                 words: tuple[str, ...]) -> None:
    body = html.unescape(client.get(f"/rules/saboteur2/?lang={lang}").content.decode())
    for text in words:
        assert text in body
    assert "House rulings" not in body and "The profiteer always wins" not in body


# ---- defects fixed earlier, now tested ----------------------------------------------------

def play(g: GameWithLinks, move: Move) -> None:
    game = g.refresh()
    seat_move(g.seats[g.actor_seat()], game.version, move)


def legal(g: GameWithLinks) -> list[Move]:
    from games import engine
    return engine.legal_moves(g.refresh().state())


def test_the_invitation_states_the_vacation_days_in_both_parts(commit: Any) -> None:
    from django.core import mail

    from tests.support import make_game
    with commit():
        make_game(players=3, start=True, invite=True)
    invitations = [m for m in mail.outbox if "invited" in str(m.subject)]
    assert len(invitations) == 3
    for letter in invitations:
        html_part = html.unescape(str(letter.alternatives[0][0]))  # type: ignore[attr-defined]
        for part in (letter.body, html_part):
            assert "You can take up to 7 days of vacation in this game" in part
            assert "up to  days" not in part


def test_the_discard_pile_counts_one_card_and_two_cards(client: Client,
                                                       game: GameWithLinks) -> None:
    play(game, next(m for m in legal(game) if m["type"] == "pass"))
    body = client.get(game.page(2)).content.decode()
    assert "Discard pile: 1 card." in body and "1 cards" not in body
    play(game, next(m for m in legal(game) if m["type"] == "pass"))
    assert "Discard pile: 2 cards." in client.get(game.page(2)).content.decode()


def test_a_broken_tool_is_named_next_to_the_hand(client: Client, game: GameWithLinks) -> None:
    # Pass until someone can break the next player's tool, then pass round to that player.
    for _turn in range(30):
        actor = game.actor_seat()
        target = (actor + 1) % 3
        breaks = [m for m in legal(game) if m["type"] == "action"
                  and m.get("target") == target and m.get("tool")]
        if breaks:
            break
        play(game, next(m for m in legal(game) if m["type"] == "pass"))
    else:
        pytest.fail("no broken tool to play")
    before = client.get(game.page(target)).content.decode()
    assert "Until that is mended" not in before
    play(game, breaks[0])
    body = html.unescape(client.get(game.page(target)).content.decode())
    assert game.refresh().state().actor == target
    assert "In front of you: Broken" in body
    assert "Until that is mended you cannot place path cards" in body
    # No path card lights a cell now; a map (its goals) or a rockfall (its cards) may.
    lights = re.search(r'data-cells="[^"]+"', body) is not None
    assert ("tap a lit cell" in body) is lights and "dotted" not in body
    if not lights:
        assert "Choose what to do with a card and press Play." in body


def test_the_time_zone_list_puts_common_zones_first_and_has_no_aliases(
        client: Client, game: GameWithLinks) -> None:
    import re
    body = client.get(game.page(0)).content.decode()
    # A list to pick from (issue 39: it was a box to type in, defaulting to UTC).
    select = body.split('<select name="time_zone"', 1)[1].split("</select>", 1)[0]
    zones = re.findall(r'<option value="([^"]+)"', select)
    assert zones[:3] == ["UTC", "Europe/London", "Europe/Dublin"]
    assert zones.index("America/New_York") < zones.index("Africa/Abidjan")
    assert "Europe/Rome" in zones and "Asia/Kolkata" in zones
    for alias in ("US/Eastern", "Asia/Calcutta", "Japan", "GB", "Europe/Belfast"):
        assert alias not in zones
    assert 250 < len(zones) < 500 and len(set(zones)) == len(zones)


def test_the_favicon_answers_with_an_existing_file(client: Client) -> None:
    from django.contrib.staticfiles import finders
    answer = client.get("/favicon.ico")
    assert answer.status_code in (301, 302)
    target = answer["Location"]
    assert target.endswith((".svg", ".ico"))
    name = target.split("/static/", 1)[1]
    assert finders.find(name) is not None


def test_a_second_links_request_within_the_hour_sends_nothing_and_looks_the_same(
        client: Client, game: GameWithLinks, commit: Any) -> None:
    from django.core import mail
    with commit():
        pass  # the game's own emails go out first
    mail.outbox.clear()
    with commit():
        first = client.post("/links/", {"email": "p1@example.com"}, follow=True)
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["p1@example.com"]
    with commit():
        second = client.post("/links/", {"email": "P1@example.com"}, follow=True)
    assert len(mail.outbox) == 1
    assert second.redirect_chain == first.redirect_chain == [("/links/sent/", 302)]
    assert second.content == first.content


def test_a_turned_card_has_one_name_in_the_rockfall_list_and_the_log(
        client: Client, game_factory: Any) -> None:
    import random
    import re
    rng = random.Random(7)
    g = game_factory(players=4, seed=11)
    for _turn in range(60):
        moves = legal(g)
        actor = g.actor_seat()
        if any(m["type"] == "rockfall" for m in moves):
            body = html.unescape(client.get(g.page(actor)).content.decode())
            placed = {cell: name for name, cell in re.findall(
                r"placed ([^<>]+?) at (\(-?\d+, -?\d+\)), turned round\.", body)}
            offered = {cell: name for name, cell in re.findall(
                r">remove ([^<>]+?) \(turned round\) at (\(-?\d+, -?\d+\))<", body)}
            both = set(placed) & set(offered)
            if both:
                for cell in both:
                    assert offered[cell] == placed[cell], cell
                return
        turned = [m for m in moves if m["type"] == "place" and m.get("rotated")]
        play(g, rng.choice(turned) if turned else rng.choice(moves))
    pytest.fail("no turned card to remove with a rockfall")


def test_a_dead_link_under_the_development_server_shows_the_players_404_page(
        client: Client, settings: Any) -> None:
    """`run.py serve` runs with DEBUG on; FRIENDLY_ERRORS keeps Django's debug page (a list
    of URL patterns) from a newcomer who mistyped a link."""
    settings.DEBUG = True
    settings.FRIENDLY_ERRORS = True
    page = client.get("/play/" + "x" * 43 + "/")
    body = page.content.decode()
    assert page.status_code == 404 and "DEBUG = True" not in body
    assert "This link does not open a seat" in body
    assert client.get("/api/play/nothing/").json()["error"]["code"] == "not_found"
    settings.FRIENDLY_ERRORS = False
    assert "DEBUG = True" in client.get("/no-such-page/").content.decode()
