"""Email commands: every command of both rulesets in every language's words."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.engine.types import Move, SeatView
from games.inbound.core.commands import Command, CommandError, command_lines, parse_line, to_move
from games.inbound.core.parse import is_automatic, reply_lines
from games.seatview.core import command_words as kw
from games.seatview.core.move_commands import command_for
from tests.email_support import dig

# command -> what it means, in each language's own words
WORDS = {
    "en": ["play 3 at 2,1", "play 3 at 2,1 turned", "pass 4", "pass 1 4 5", "play 2 on Bert",
           "play 2 on Bert lantern", "map 5 top", "map 5 middle", "map 5 bottom",
           "rockfall 1 at 3,0", "gold 2", "steal Bert", "free 2 5 remove trapped",
           "say Hello all"],
    "it": ["gioca 3 a 2,1", "gioca 3 a 2,1 girata", "passa 4", "passa 1 4 5", "gioca 2 su Bert",
           "gioca 2 su Bert lanterna", "mappa 5 alto", "mappa 5 centro", "mappa 5 basso",
           "caduta massi 1 a 3,0", "oro 2", "ruba Bert", "libera 2 5 togli trappola",
           "di' Hello all"],
    "nl": ["speel 3 op 2,1", "speel 3 op 2,1 gedraaid", "pas 4", "pas 1 4 5", "speel 2 op Bert",
           "speel 2 op Bert lantaarn", "kaart 5 boven", "kaart 5 midden", "kaart 5 onder",
           "ingestorte gang 1 op 3,0", "goud 2", "steel Bert", "bevrijd 2 5 verwijder opgesloten",
           "zeg Hello all"],
    "es": ["juega 3 en 2,1", "juega 3 en 2,1 girada", "pasa 4", "pasa 1 4 5", "juega 2 a Bert",
           "juega 2 a Bert linterna", "mapa 5 arriba", "mapa 5 centro", "mapa 5 abajo",
           "caída de rocas 1 en 3,0", "oro 2", "roba Bert", "libera 2 5 quita atrapado",
           "di Hello all"],
    "de": ["spiele 3 auf 2,1", "spiele 3 auf 2,1 gedreht", "passe 4", "passe 1 4 5",
           "spiele 2 auf Bert", "spiele 2 auf Bert laterne", "karte 5 oben", "karte 5 mitte",
           "karte 5 unten", "steinschlag 1 auf 3,0", "gold 2", "stiehl Bert",
           "befreie 2 5 entferne falle", "sag Hello all"],
}
MEANING = [
    Command("play", (3,), (2, 1)), Command("play", (3,), (2, 1), turned=True),
    Command("pass", (4,)), Command("pass", (1, 4, 5)), None, None,
    Command("map", (5,), goal=0), Command("map", (5,), goal=1), Command("map", (5,), goal=2),
    Command("rockfall", (1,), (3, 0)), Command("gold", (2,)), Command("steal", target="bert"),
    Command("free", (2, 5), remove="trapped"), Command("say", text="Hello all"),
]


@pytest.mark.parametrize("language", list(WORDS))
def test_every_command_is_understood_in_each_language(language: str) -> None:
    for text, meaning in zip(WORDS[language], MEANING, strict=True):
        command = parse_line(text)
        assert command is not None, text
        if meaning is None:  # "play 2 on Bert [lantern]": the target keeps its small word
            assert command.verb == "play" and command.numbers == (2,) and "bert" in command.target
            assert command.tool == ("lantern" if text.split()[-1] != "Bert" else None)
            continue
        if meaning.verb == "free":
            assert kw.fold(command.remove) in kw.all_words(kw.TRAPPED), text
            meaning = Command("free", (2, 5), remove=command.remove)
        if meaning.verb == "steal":
            assert command.target == "bert"
            continue
        assert command == meaning, text


def test_case_accents_spacing_and_english_in_any_language() -> None:
    assert parse_line("  PLAY   3  AT ( 2 , -1 )  Turned ") == Command("play", (3,), (2, -1),
                                                                        turned=True)
    assert parse_line("Spiele 3 auf 2,1") == parse_line("spiele 3 auf 2,1")
    assert parse_line("Hi all, good game") is None
    with pytest.raises(CommandError) as refused:
        parse_line("play banana")
    assert refused.value.code == "number_missing"
    # Each command line on its own; a line that is no command is left out.
    read = command_lines(["Hello!", "say good luck", "pass 2", "play banana", "say"])
    assert [(line.verb, line.is_move) for line in read] == [
        ("say", False), ("pass", True), ("play", True)]
    assert read[0].command is not None and read[0].command.text == "good luck"
    assert read[2].error is not None and read[2].error.code == "number_missing"


def _check_round_trip(state: engine.State, moves: list[Move], names: dict[int, str]) -> None:
    view = engine.view(state, state.actor)
    for move in moves:
        want = {k: v for k, v in move.items() if k != "seat"}
        for language in kw.LANGUAGES:
            text = command_for(move, view, names, language)
            command = parse_line(text)
            assert command is not None, text
            assert to_move(command, view, names) == want, (language, text)


@pytest.mark.parametrize(("ruleset", "seats", "seeds"), [("base", 3, (5,)),
                                                  ("saboteur2", 5, range(4))])
def test_every_legal_move_written_as_a_command_reads_back_in_every_language(
        ruleset: str, seats: int, seeds: range) -> None:
    """The emails' examples and options are commands that make exactly that move."""
    kinds: set[str] = set()
    names = {n: f"Player {n}" for n in range(seats)}
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.new_game(seats, seed, ruleset)
        while not state.finished:
            legal = engine.legal_moves(state)
            sample = [m for m in legal if m["type"] not in kinds] + rng.sample(legal, 2) \
                if len(legal) > 2 else legal
            _check_round_trip(state, sample, names)
            kinds |= {m["type"] for m in sample}
            specials = [m for m in legal if m["type"] != "place"]
            if ruleset == "base":
                move = dig(legal, rng)
            else:
                move = rng.choice(specials) if specials and rng.random() < 0.5 \
                    else rng.choice(legal)
            state = engine.apply(state, move)
    wanted = {"place", "action", "map", "rockfall", "pass"} | (
        {"pick_gold"} if ruleset == "base" else {"free", "steal"})
    assert wanted <= kinds


def test_quoted_text_and_signatures_are_cut_off() -> None:
    text = ("pass 2\nthanks\n-- \nAnn\nSent from my phone\n\nOn Mon, Bob wrote:\n"
            "> play 1 at 1,0\n")
    assert reply_lines(text) == ["pass 2", "thanks"]
    assert reply_lines("passa 1\n\nIl giorno lun 2 mar, Saboteur ha scritto:\n> x") == ["passa 1"]
    assert reply_lines("-----Original Message-----\nFrom: x\npass 1") == []
    assert reply_lines("\n\n> quoted only\n") == []


def test_machines_are_recognised() -> None:
    assert is_automatic([("Auto-Submitted", "auto-replied")], "ann@example.com")
    assert is_automatic([("Precedence", "bulk")], "ann@example.com")
    assert is_automatic([], "MAILER-DAEMON@example.com")
    assert is_automatic([], "postmaster@example.com")
    assert not is_automatic([("Auto-Submitted", "no")], "ann@example.com")


# A curve N-E: upright its exits are N-E, turned round S-W.
CURVE_VIEW: SeatView = {"seat": 0, "ruleset": "base", "players": [], "hand": [
    engine.card_json(engine.rules_for("base").cards["p08"])]}


@pytest.mark.parametrize(("language", "upright", "turned"), [
    ("en", "N-E", "S-W"), ("it", "N-E", "S-O"), ("es", "n-e", "s-o"),
    ("de", "N-O", "S-W"), ("nl", "N-O", "Z-W"),
    ("it", "nord-est", "sud-ovest"), ("de", "NO", "SW"), ("nl", "noord-oost", "ZW"),
])
def test_a_placement_can_name_its_exits_in_the_readers_letters(language: str, upright: str,
                                                                turned: str) -> None:
    """Italian and Spanish write O for west, German O for east, Dutch O for east and Z for
    south: "gioca 1 in 2,1 S-O" is the curve turned round, "spiele 1 auf 2,1 S-O" is no
    side of it."""
    verb = kw.first(kw.VERBS["play"], language)
    for exits, rotated in ((upright, False), (turned, True)):
        command = parse_line(f"{verb} 1 {kw.first(kw.AT, language)} 2,1 {exits}", language)
        assert command is not None
        assert to_move(command, CURVE_VIEW, {}) == {
            "type": "place", "card": "p08", "x": 2, "y": 1, "rotated": rotated}


def test_exits_the_card_cannot_have_are_refused_in_the_readers_letters() -> None:
    from django.utils import translation

    command = parse_line("spiele 1 auf 2,1 S-O", "de")  # O is east in German
    assert command is not None and command.exits == ("E", "S")
    with translation.override("de"), pytest.raises(CommandError) as refused:
        to_move(command, CURVE_VIEW, {})
    from games.inbound.core.commands import command_error
    with translation.override("de"):
        assert command_error(refused.value) == (
            "Karte 1 kann nicht die Ausgänge O-S haben: aufrecht hat sie N-O, um 180° "
            "gedreht S-W.")


@pytest.mark.parametrize("language", ["en", "it", "nl", "es", "de"])
def test_a_rockfall_is_commanded_by_the_card_s_own_name(language: str) -> None:
    """The Italian card is "Caduta massi" while the command was "frana" (issue 39): the
    card's name in the reader's language is a command word, and the one the emails show;
    the short word still works."""
    from django.utils import translation

    from games.seatview.core.words import card_name
    with translation.override(language):
        name = card_name({"kind": "action", "action": "rockfall"})
    assert kw.first(kw.VERBS["rockfall"], language) == kw.fold(name)
    assert parse_line(f"{name} 1 {kw.first(kw.AT, language)} 3,0", language) == Command(
        "rockfall", (1,), (3, 0))
    for word in kw.VERBS["rockfall"][language]:
        assert parse_line(f"{word} 2 at -1,4", language) == Command("rockfall", (2,), (-1, 4))


@pytest.mark.parametrize("line", ["di' Buona fortuna a tutti!", "dì Buona fortuna a tutti!",
                                  "di’ Buona fortuna a tutti!", "di Buona fortuna a tutti!",
                                  "Di' Buona fortuna a tutti!"])
def test_the_italian_say_is_read_with_the_imperative_s_apostrophe_or_accent(line: str) -> None:
    assert parse_line(line, "it") == Command("say", text="Buona fortuna a tutti!")


def test_the_italian_examples_write_the_imperative_di_with_its_apostrophe() -> None:
    assert kw.first(kw.VERBS["say"], "it") == "di'"
