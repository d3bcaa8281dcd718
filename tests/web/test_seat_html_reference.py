"""The seat page's HTML written in Python for speed (the hand's cards, the table talk,
the mute list, the suspicion sheet, the log) says what the plain templates said: each fast
writer against its plain reference (templates/games/reference/, rendered by the
`plain_*` function beside it, with the same inputs) on seat pages of seeded games of both
rulesets, from the start to the end: talk with unread lines and a muted player, notes
over two rounds, a refused move's choice kept, a hand played empty, an anonymous table, in
Italian and German, with names and lines that need escaping. Equal once whitespace is
collapsed (a browser shows the same), escaping and all."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.template import Context
from django.test import Client
from django.utils import timezone, translation

from games import engine
from games.game.core.game import GOING_ON, Game
from games.moves.services.seat_services import post_message
from games.notes.doors.sheet_box import plain_sheet_rows, sheet_rows
from games.notes.services.sheet import save_note, sheet_of
from games.play.doors.hand_cards import hand_cards, plain_hand_cards
from games.seats.core.links import link_for
from games.seatview.core.recent import since
from games.seatview.services.timeline import log_items, plain_log_items
from games.setup.services import game_setup
from games.talk.doors.talk_lists import mute_items, plain_mute_items, plain_talk_items, talk_items
from games.talk.services.muting import mute
from tests.support import GameWithLinks, choose, seat_move, token_of

pytestmark = pytest.mark.django_db

# Every sign HTML escapes, in a name and in the talk and the notes.
SIGNS = """<b>&"'"""
ODD_NAME = f"Zoë {SIGNS}"
ODD_LINE = f"Look: {SIGNS} & <script>x</script>\nsecond line"


def collapsed(html: str) -> str:
    return " ".join(str(html).split())


@dataclass(frozen=True)
class Table:
    ruleset: str
    players: int
    language: str  # the players'
    anonymous: bool = False
    seed: int = 7


TABLES = [Table("base", 4, "it"), Table("saboteur2", 5, "de", seed=1),
          Table("base", 3, "en", anonymous=True), Table("saboteur2", 4, "it", anonymous=True)]


def seated(table: Table, seed: int) -> GameWithLinks:
    specs = [game_setup.PlayerSpec(name=ODD_NAME if i == 1 else f"Player{i}",
                                   email=f"p{i}@example.com",
                                   language=table.language, time_zone="Europe/Rome")
             for i in range(table.players)]
    made = game_setup.create_game(name="Reference", players=specs, seed=seed, start=True,
                                  invite=False, ruleset=table.ruleset,
                                  anonymous=table.anonymous)
    seats = [seat for seat, _link in made.seats]
    return GameWithLinks(game=made.game, seats=seats,
                         tokens=[token_of(link_for(seat)) for seat in seats])


def contexts(response: Any) -> dict[str, Context]:
    """Each template the page rendered, with the context it was rendered with (the
    first time, for one rendered twice)."""
    found: dict[str, Context] = {}
    for used, context in zip(response.templates, response.context, strict=True):
        found.setdefault(used.name, context)
    return found


def pairs(response: Any) -> Iterator[tuple[str, str, str]]:
    """(the piece, the fast writer's HTML, the plain reference's) for each piece of the
    page written in Python, from the page's own contexts."""
    found = contexts(response)
    page = found["games/seat.html"]
    if "games/_hand.html" in found and not page.get("over"):
        hand = found["games/_hand.html"]
        yield "hand", hand_cards(hand), plain_hand_cards(hand)
    talk = found["games/_talk_messages.html"]
    yield "talk", talk_items(talk), plain_talk_items(talk)
    yield "mute", mute_items(page), plain_mute_items(page)
    fresh_from = since(page["view"])
    yield "log", log_items(page["log"], fresh_from), plain_log_items(page["log"], fresh_from)
    game: Game = page["game"]
    sheet = sheet_of(page["seat"], page["view"], page["names"])
    shape: dict[str, Any] = {"secret": page["secret"], "csrf_token": page["csrf_token"],
                             "open_": game.status in GOING_ON,
                             "round_now": page["view"].get("round") or 1}
    yield "sheet", sheet_rows(sheet, **shape), plain_sheet_rows(sheet, **shape)


def assert_same_html(response: Any, seat_language: str, zone: str) -> dict[str, str]:
    """Every piece the same from the fast writer and the reference; each fast piece is
    the page's own. The pieces, by name (for what a test looks for in them)."""
    assert response.status_code in (200, 400)
    body = response.content.decode()
    seen = {}
    with translation.override(seat_language), timezone.override(zone):
        for piece, fast, plain in pairs(response):
            assert collapsed(fast) == collapsed(plain), piece
            assert str(fast) in body, piece
            seen[piece] = str(fast)
    return seen


def play(g: GameWithLinks, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        state = g.refresh().state()
        if state.finished:
            return
        assert state.actor is not None
        seat_move(g.seats[state.actor], g.game.version,
                  choose(engine.legal_moves(state), rng, 0.35))


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t.ruleset}-{t.players}-{t.language}"
                         f"{'-anonymous' if t.anonymous else ''}")
def test_the_fast_html_is_the_plain_templates_html(client: Client, table: Table) -> None:
    g = seated(table, seed=table.seed)
    reader, page = g.seats[0], g.page(0)
    rng = random.Random(table.seed)

    def check(path: str = page, seat: int = 0, **post: Any) -> dict[str, str]:
        response = client.post(path + "move", post) if post else client.get(path)
        return assert_same_html(response, g.seats[seat].language, g.seats[seat].time_zone)

    # The start: no talk, no notes, a full hand.
    shown = check()
    assert "hand-card" in shown["hand"] and 'class="hint"' in shown["talk"]

    # Mid-game: talk from every seat (the reader's own lines have no report form), a
    # muted player, notes with every sign, lines the reader has not read yet.
    play(g, rng, 3 * table.players)
    for number, seat in enumerate(g.seats):
        post_message(seat, ODD_LINE if number == 1 else f"Line from {number}")
    mute(reader, table.players - 1)
    save_note(reader, 1, mark="suspected", text=f"Suspect {SIGNS}")
    save_note(reader, 2, mark="trusted", text="")
    check()
    for number, seat in enumerate(g.seats[1:], 1):
        post_message(seat, f"New from {number}")
    shown = check()
    assert 'class="unread-from"' in shown["talk"] and 'class="report"' in shown["talk"]
    assert "&lt;script&gt;" in shown["talk"] and "<script>" not in shown["talk"]
    assert "<br>" in shown["talk"] and 'value="unmute"' in shown["mute"]
    assert "Suspect &lt;b&gt;&amp;&quot;&#x27;" in shown["sheet"]
    if table.anonymous:  # the aliases while the game goes on, never the names
        assert not any("Zoë" in html for html in shown.values())
    else:
        assert "Zoë &lt;b&gt;&amp;&quot;&#x27;" in shown["mute"]

    # A refused move keeps its choice: the option selected (and a card to discard
    # ticked, where the hand offers a discard of several).
    actor = g.actor_seat()
    forms = contexts(client.get(g.page(actor)))["games/_hand.html"]["forms"]
    chosen = next(card.groups[0].choices[0].value for card in forms.hand if card.groups)
    ticked = [card.card["id"] for card in forms.hand if card.discardable][:1]
    shown = check(g.page(actor), seat=actor, version="not a version", move=chosen,
                  cards=ticked)
    assert " selected" in shown["hand"] and (not ticked or " checked" in shown["hand"])

    # The next round: this round's notes and the one before.
    first = g.refresh().state().round
    while g.refresh().state().round == first and not g.game.state().finished:
        play(g, rng, 1)
    save_note(reader, 1, mark="unsure", text="Round two")
    shown = check()
    assert 'class="sheet-rounds"' in shown["sheet"]

    # A seat whose hand is played out while its game goes on.
    empty = None
    while empty is None and not g.refresh().state().finished:
        state = g.game.state()
        empty = next((number for number, hand in enumerate(state.hands) if not hand), None)
        if empty is None:
            play(g, rng, 1)
    assert empty is not None, "every seeded game here plays a hand out before its end"
    shown = check(g.page(empty), seat=empty)
    assert "hand-card" not in shown["hand"] and "<p>" in shown["hand"]

    # The end: the sheet read-only, every name told.
    while g.refresh().status == Game.Status.ACTIVE:
        play(g, rng, 10)
    assert g.game.status == Game.Status.FINISHED
    shown = check()
    assert "hand" not in shown and "<h3>" in shown["sheet"]
    assert "Zoë &lt;b&gt;&amp;&quot;&#x27;" in shown["log"]
