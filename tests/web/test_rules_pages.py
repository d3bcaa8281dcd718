"""The "How to play" pages (in the reader's language, every card drawn and counted, linked
from the seat page, the setup page and every email) and "email me my links"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games import engine
from games.seats.core.links import link_for
from games.seatview.core import describe
from games.setup.services import game_setup
from tests.support import GameWithLinks

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["base", "saboteur2"])
def test_every_card_is_on_the_rules_page(client: Client, ruleset: str) -> None:
    body = client.get(f"/rules/{ruleset}/").content.decode()
    for spec in engine.rules_for(ruleset).cards.values():
        card = engine.card_json(spec)
        if card["kind"] in ("path", "action"):
            assert describe.card_name(card).replace("'", "&#x27;") in body, card["id"]
    assert body.count("<svg") >= 10


@pytest.mark.parametrize(("lang", "heading"), [("it", "Come si gioca a Saboteur 2"),
                                               ("nl", "Zo speel je Saboteur 2"),
                                               ("es", "Cómo se juega a Saboteur 2"),
                                               ("de", "So wird Saboteur 2")])
def test_the_rules_page_speaks_the_players_language(client: Client, lang: str,
                                                    heading: str) -> None:
    body = client.get(f"/rules/saboteur2/?lang={lang}").content.decode()
    assert heading in body and f'lang="{lang}"' in body
    assert "Your turn" not in body


def _cells(body: str, section: str) -> list[list[str]]:
    """The rows of the first table in a section of the page, as lists of cell texts."""
    part = body.split(f'<section id="{section}">', 1)[1].split("</section>", 1)[0]
    table = part.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [re.findall(r"<t[dh]>([^<]*)</t[dh]>", row) for row in table.split("</tr>")
            if "<t" in row]


def test_a_player_without_the_box_learns_the_deal_and_the_gold_of_the_base_game(
        client: Client) -> None:
    body = client.get("/rules/base/").content.decode()
    # Saboteurs, gold-diggers and cards in hand by the number of players (the seeds' table).
    assert _cells(body, "setup") == [
        ["3", "1", "3", "6"], ["4", "1", "4", "6"], ["5", "2", "4", "6"], ["6", "2", "5", "5"],
        ["7", "3", "5", "5"], ["8", "3", "6", "4"], ["9", "3", "7", "4"], ["10", "4", "7", "4"]]
    assert _cells(body, "gold") == [["Nuggets each", "4", "3", "3", "2"]]
    for words in ("at most 9", "against the order of play", "After the third round",
                  "every goal card still face down", "never sideways", "Repair",
                  "look at one face-down goal card"):
        assert words in body.replace("&#x27;", "'"), words
    drawn = body.split('<h3>Start and goal cards</h3>', 1)[1].split("</ul>", 1)[0]
    assert drawn.count("<svg") == 5 and "goal: gold" in drawn and "face-down goal" in drawn


def test_the_expansion_page_has_its_dwarf_cards_and_how_winners_are_paid(
        client: Client) -> None:
    body = client.get("/rules/saboteur2/").content.decode()
    assert _cells(body, "setup") == [["blue gold-digger", "4"], ["green gold-digger", "4"],
                                     ["boss", "1"], ["profiteer", "1"], ["geologist", "2"],
                                     ["saboteur", "3"]]
    assert _cells(body, "gold") == [["Nuggets each", "5", "4", "3", "2", "1"]]
    assert "5+" in body and "the top 10 are set aside" in body and "dealt 6 cards" in body
    assert "gets 1 nugget less" in body and "gets 2 nuggets less" in body


@pytest.mark.parametrize(("lang", "words"), [
    ("it", ["Preparare un round", "La divisione dell'oro", "Fine della partita",
            "carte di destinazione", "Carte sabotatore"]),
    ("nl", ["Een ronde klaarleggen", "Het goud verdelen", "Einde van het spel"]),
    ("es", ["Preparar una ronda", "El reparto del oro", "Fin de la partida"]),
    ("de", ["Eine Runde vorbereiten", "Das Gold verteilen", "Ende der Partie"])])
def test_the_whole_rules_are_in_every_language(client: Client, lang: str,
                                               words: list[str]) -> None:
    body = client.get(f"/rules/base/?lang={lang}").content.decode().replace("&#x27;", "'")
    for word in words:
        assert word in body, word
    assert "carte meta" not in body and "Sharing the gold" not in body


def test_the_rules_are_linked_from_seat_setup_and_emails(client: Client, commit: Any) -> None:
    with commit():
        g = game_setup.create_game(name="G", seed=1, start=True, players=[
            game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("a", "b", "c")])
    seat_page = client.get(link_for(g.seats[0][0]).replace("http://127.0.0.1:8000", ""))
    assert "/rules/base/" in seat_page.content.decode()
    assert "/rules/base/" in client.get("/new/").content.decode()
    assert mail.outbox and all("/rules/base/?lang=en" in m.body for m in mail.outbox)


def test_email_me_my_links_sends_the_open_seats_of_that_address_only(
        client: Client, game: GameWithLinks, commit: Any) -> None:
    with commit():
        other = game_setup.create_game(name="Other", seed=2, start=True, players=[
            game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("p0x", "q", "r")])
    mail.outbox.clear()
    with commit():
        answer = client.post("/links/", {"email": "P0@example.com"})
    assert answer.status_code == 302 and answer["Location"] == "/links/sent/"
    [letter] = mail.outbox
    assert letter.to == ["p0@example.com"]
    assert f"/play/{game.tokens[0]}/" in letter.body
    assert link_for(other.seats[0][0]) not in letter.body
    # An unknown address: the same answer, and no email.
    mail.outbox.clear()
    with commit():
        unknown = client.post("/links/", {"email": "nobody@x.org"})
    assert unknown.status_code == 302 and unknown["Location"] == "/links/sent/"
    assert not mail.outbox
    page = client.get("/links/sent/").content.decode()
    assert "If this address has seats in games here" in page


@override_settings(RATE_LIMITS={"links_client": [3, 3600]})
def test_email_me_my_links_is_rate_limited(client: Client) -> None:
    answers = [client.post("/links/", {"email": f"x{n}@x.org"}).status_code for n in range(4)]
    assert answers == [302, 302, 302, 429]


def test_one_links_email_per_address_and_hour(client: Client, game: GameWithLinks,
                                              commit: Any) -> None:
    with commit():
        client.post("/links/", {"email": "p0@example.com"})
        client.post("/links/", {"email": "p0@example.com"})
    assert len([m for m in mail.outbox if m.to == ["p0@example.com"]
                and re.search("private link", str(m.subject))]) == 1


def test_an_address_whose_only_game_is_over_gets_its_link_and_replay(
        client: Client, commit: Any) -> None:
    """A finished game's page keeps its replay and record: "email me my links" lists it."""
    from django.core import mail

    from games.game.core.game import Game
    from tests.support import make_game
    over = make_game(players=3, seed=2)
    Game.objects.filter(pk=over.game.pk).update(status=Game.Status.FINISHED)
    mail.outbox.clear()
    with commit():
        client.post("/links/", {"email": "p1@example.com"})
    [letter] = mail.outbox
    assert f"/play/{over.tokens[1]}/" in letter.body
    assert f"/play/{over.tokens[1]}/replay/" in letter.body
    assert "(the game is over)" in letter.body


@pytest.mark.parametrize(("language", "heading"), [
    ("it", "Gioco onesto e resoconto della partita"),
    ("de", "Fairness und das Protokoll der Partie"),
    ("nl", "Eerlijk spel en het spelverslag"), ("es", "Juego limpio y registro de la partida")])
def test_a_turn_email_points_to_the_fairness_section_in_the_reader_s_language(
        client: Client, commit: Any, language: str, heading: str) -> None:
    """Italian and German turn emails ended with an English pointer (README, “Fairness and
    the game record”): they link to the rules page's section, in the reader's language."""
    from games.seats.core.seat import Seat
    from tests.support import make_game
    with commit():
        g = make_game(players=3, seed=2, start=False)
        Seat.objects.filter(game=g.game).update(language=language)
        game_setup.start_game(g.game.pk)
    [turn] = [m for m in mail.outbox if "Fingerprint" not in m.body and "/rules/" in m.body
              and m.to == [g.seats[0].email] and "#fairness" in m.body]
    assert "README" not in str(turn.body) and "Fairness and the game record" not in turn.body
    link = re.search(r"http://127\.0\.0\.1:8000(/rules/base/\?lang=(\w+))#fairness",
                     str(turn.body))
    assert link is not None and link.group(2) == language
    page = client.get(link.group(1)).content.decode()
    section = page[page.index('id="fairness"'):]
    assert heading in section[:300] and "verifygame" in section
