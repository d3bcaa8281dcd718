"""Reading email commands: a reply's words -> a Command -> an engine move.

    play 3 at 2,1 [turned]      path card 3 of your hand at x=2, y=1 (turned round)
    play 3 at 2,1 S-W           ... with the exits it should have, in the reader's letters
    play 2 on Bert [lantern]    an action card on a player (`me` for yourself)
    map 5 top|middle|bottom     rockfall 1 at 3,0          pass 4 (Saboteur 2: pass 1 4 5)
    gold 2                      steal Bert                 free 2 5 remove trapped
    say ...                     table talk
    note 3 suspect broke my lamp    a private note on seat 3 (games.notes): mark, line
    nudge                       nudge the seat to act      pause 3 reason | agree | end

Hand numbers count from 1 in the order of `hand` in the seat's view (the order the
seat page and the turn email show); gold numbers in the order the turn email lists
the offer. `parse` knows nothing of the game; `to_move` reads the seat's view and
raises CommandError for what only the game can tell (no card 7, no player "Bret").
The engine judges the move itself. The other way round, a legal move written as a
command in a language's words, is `games.seatview.core.move_commands`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.engine.types import CardView, Move, SeatView
from games.seatview.core import command_words as kw
from games.seatview.core import compass
from games.seatview.core.move_commands import gold_order

CELL_RE = re.compile(r"^\(?\s*(-?\d+)\s*[,;/ ]\s*(-?\d+)\s*\)?(?:\s+|$)(.*)$")
NUMBER_RE = re.compile(r"^\d{1,3}$")


class CommandError(Exception):
    """A command that cannot be understood; `code` picks the sentence (answer.py)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Command:
    verb: str  # play, pass, map, rockfall, gold, steal, free, say
    numbers: tuple[int, ...] = ()  # hand (or gold offer) numbers, from 1
    cell: tuple[int, int] | None = None
    turned: bool = False
    exits: tuple[str, ...] = ()  # "play 3 at 2,1 S-W": the exits it should have (N/E/S/W)
    target: str = ""  # the rest of "play 2 on <target>", "steal <target>" (folded)
    tool: str | None = None
    goal: int | None = None
    remove: str = ""
    text: str = ""  # say, note (as written)
    words: tuple[str, ...] = field(default=(), compare=False)


# Commands that make no move: table talk and the clock's (games.inbound.services.clock_commands).
NOT_MOVES = frozenset({"say", "nudge", "pause", "note"})


@dataclass(frozen=True)
class Line:
    """One command line of a reply as written, and what it asks for (`command`), or why
    it cannot be read (`error`: a move command that makes no sense on its own)."""

    text: str
    command: Command | None = None
    error: CommandError | None = None

    @property
    def verb(self) -> str:
        return self.command.verb if self.command is not None else "play"

    @property
    def is_move(self) -> bool:
        return self.verb not in NOT_MOVES


def command_lines(lines: list[str], language: str = "en") -> list[Line]:
    """The command lines among a reply's lines, each read on its own (one that cannot be
    read is kept with its error). Lines that start with no command word are left out
    ("Hi all,"), and so is a `say` with nothing after it. `language` reads direction
    letters ("O" is west in Italian, east in German)."""
    found = []
    for text in lines:
        try:
            command = parse_line(text, language)
        except CommandError as error:
            found.append(Line(text, error=error))
            continue
        if command is not None and (command.verb != "say" or command.text):
            found.append(Line(text, command))
    return found


def parse_line(line: str, language: str = "en") -> Command | None:
    """One line as a command, None when it does not start with a command word."""
    stripped = line.strip()
    words = kw.fold(stripped).replace(",", " , ").split()
    if not words:
        return None
    verb, taken = kw.leading_verb(words)
    if verb is None:
        return None
    if verb == "say":
        return Command(verb="say", text=stripped.split(None, 1)[1].strip()
                       if len(stripped.split(None, 1)) > 1 else "")
    if verb == "note":
        return _note(stripped.split(None, taken)[-1] if len(words) > taken else "")
    rest = " ".join(words[taken:]).replace(" , ", ",")
    if verb == "play":
        return _play(rest, language)
    return _PARSERS[verb](rest)


def _note(rest: str) -> Command:
    """`note 3 suspect broke my lamp`: the seat as players number them (from 1), then the
    mark and the line as written (games.notes.core.mark_words reads the mark)."""
    words = rest.split(None, 1)
    if not words or not NUMBER_RE.match(words[0]) or int(words[0]) < 1:
        raise CommandError("note_seat_missing")
    return Command(verb="note", numbers=(int(words[0]) - 1,),
                   text=words[1].strip() if len(words) > 1 else "")


def _numbers(rest: str) -> tuple[tuple[int, ...], list[str]]:
    """Leading numbers ("1 4 5" or "1,4,5"), and the words after them."""
    words = rest.replace(",", " ").split()
    numbers = []
    while words and NUMBER_RE.match(words[0]):
        numbers.append(int(words.pop(0)))
    return tuple(numbers), words


def _leading_number(rest: str, verb: str) -> tuple[int, str]:
    words = rest.split(None, 1)
    if not words or not NUMBER_RE.match(words[0]):
        raise CommandError("number_missing", verb=verb)
    return int(words[0]), words[1] if len(words) > 1 else ""


def _drop(words: list[str], table: Mapping[str, tuple[str, ...]]) -> list[str]:
    if words and words[0] in kw.all_words(table):
        return words[1:]
    return words


def _cell(rest: str) -> tuple[tuple[int, int], list[str]] | None:
    words = _drop(rest.split(), kw.AT)
    found = CELL_RE.match(" ".join(words))
    if found is None:
        return None
    return (int(found.group(1)), int(found.group(2))), found.group(3).split()


def _play(rest: str, language: str = "en") -> Command:
    number, rest = _leading_number(rest, "play")
    cell = _cell(rest)
    if cell is not None:
        where, tail = cell
        exits = next((found for w in tail if (found := compass.exits_of(w, language))), ())
        return Command(verb="play", numbers=(number,), cell=where,
                       turned=any(w in kw.all_words(kw.TURNED) for w in tail), exits=exits)
    words = rest.split()
    tool = kw.lookup(words[-1], kw.TOOLS) if words else None
    if tool is not None:
        words = words[:-1]
    return Command(verb="play", numbers=(number,), target=" ".join(words), tool=tool)


def _rockfall(rest: str) -> Command:
    number, rest = _leading_number(rest, "rockfall")
    cell = _cell(rest)
    if cell is None:
        raise CommandError("cell_missing", verb="rockfall")
    return Command(verb="rockfall", numbers=(number,), cell=cell[0])


def _map(rest: str) -> Command:
    number, rest = _leading_number(rest, "map")
    words = [w for w in rest.split() if kw.goal_of(w) is not None]
    if not words:
        raise CommandError("goal_missing")
    return Command(verb="map", numbers=(number,), goal=kw.goal_of(words[0]))


def _pass(rest: str) -> Command:
    numbers, _words = _numbers(rest)
    return Command(verb="pass", numbers=numbers)


def _gold(rest: str) -> Command:
    number, _rest = _leading_number(rest, "gold")
    return Command(verb="gold", numbers=(number,))


def _steal(rest: str) -> Command:
    if not rest.strip():
        raise CommandError("target_missing")
    return Command(verb="steal", target=rest.strip())


def _free(rest: str) -> Command:
    numbers, words = _numbers(rest)
    words = _drop(words, kw.REMOVE)
    return Command(verb="free", numbers=numbers, remove=" ".join(words))


def _clock(verb: str) -> Callable[[str], Command]:
    """nudge, pause: carried out by games.inbound.services.clock_commands, whatever the version."""
    return lambda rest: Command(verb=verb, text=rest)


_PARSERS: dict[str, Callable[[str], Command]] = {
    "nudge": _clock("nudge"), "pause": _clock("pause"),
    "rockfall": _rockfall, "map": _map, "pass": _pass, "gold": _gold, "steal": _steal,
    "free": _free}


ERRORS: dict[str, Callable[[dict[str, Any]], str]] = {
    "two_moves": lambda p: _("Only one move per email, please."),
    "note_seat_missing": lambda p: _("Say which player the note is about: their seat "
                                     "number, like “note 3 suspect broke my lamp”."),
    "number_missing": lambda p: _("Say which card: its number in your hand after the command "
                                  "word."),
    "cell_missing": lambda p: _("Say where: the column and the row, like 2,1."),
    "goal_missing": lambda p: _("Say which goal: top, middle or bottom."),
    "target_missing": lambda p: _("Say which player."),
    "no_such_card": lambda p: _("You have no card %(number)s: your hand has cards 1 to "
                                "%(size)s.") % p,
    "no_such_player": lambda p: _("There is no player called “%(name)s” in this game.") % p,
    "remove_missing": lambda p: _("Say which card in front of you to remove."),
    "remove_unknown": lambda p: _("There is no card “%(card)s” in front of you.") % p,
    "pass_one": lambda p: _("In this game you pass with one card."),
    "no_such_gold": lambda p: _("There is no gold card %(number)s: choose 1 to %(size)s.") % p,
    "free_two": lambda p: _("To free yourself, name exactly two cards of your hand."),
    "exits_mismatch": lambda p: _("Card %(number)s cannot have the exits %(asked)s: upright "
                                  "it has %(upright)s, turned round %(turned)s.") % p,
}


def command_error(error: CommandError) -> str:
    sentence = ERRORS.get(error.code)
    return sentence(error.params) if sentence else _("That command is not known.")


# ---- a command against the seat's view ----------------------------------------------------


def _card(view: SeatView, number: int) -> CardView:
    hand = view.get("hand") or []
    if not 1 <= number <= len(hand):
        raise CommandError("no_such_card", number=number, size=len(hand))
    return hand[number - 1]


def _seat_named(text: str, view: SeatView, names: dict[int, str]) -> int:
    words = _drop(text.split(), kw.ON)
    wanted = " ".join(words)
    if not wanted:
        raise CommandError("target_missing")
    if wanted in kw.all_words(kw.ME):
        me = view["seat"]
        if me is None:
            raise ValueError("commands come from a seat, never from a spectator")
        return me
    for number, name in names.items():
        if kw.fold(name).strip() == wanted:
            return number
    if wanted.isdigit() and int(wanted) - 1 in names:  # a seat number, as counted from 1
        return int(wanted) - 1
    raise CommandError("no_such_player", name=wanted)


def _in_front(text: str, view: SeatView) -> str:
    mine: list[CardView] = next((p["in_front"] for p in view["players"]
                             if p["seat"] == view["seat"]), [])
    if not text:
        if len(mine) == 1:
            return str(mine[0]["id"])
        raise CommandError("remove_missing")
    for card in mine:
        if text in kw.all_words(kw.TRAPPED) and card.get("action") == "trapped":
            return str(card["id"])
        tool = kw.lookup(text, kw.TOOLS)
        if tool is not None and tool in (card.get("tools") or []):
            return str(card["id"])
        if kw.fold(str(card.get("name", ""))) == text:
            return str(card["id"])
    raise CommandError("remove_unknown", card=text)


def _turned(command: Command, card: CardView) -> bool:
    """Whether a placement is turned round: "turned", or the exits named match the card
    turned round (and not upright)."""
    if not command.exits:
        return command.turned
    upright = tuple(side for side in compass.SIDES if side in (card.get("exits") or []))
    turned = tuple(side for side in compass.SIDES
                   if compass.OPPOSITE[side] in (card.get("exits") or []))
    if command.exits == upright:
        return False
    if command.exits == turned:
        return True
    raise CommandError("exits_mismatch", number=command.numbers[0],
                       asked=compass.letters(command.exits),
                       upright=compass.letters(upright), turned=compass.letters(turned))



def to_move(command: Command, view: SeatView, names: dict[int, str]) -> Move:
    """The engine move the command names (not yet judged: the engine does that)."""
    verb = command.verb
    if verb == "play":
        card = _card(view, command.numbers[0])
        if command.cell is not None:
            x, y = command.cell
            if card.get("action") == "rockfall":
                return {"type": "rockfall", "card": card["id"], "x": x, "y": y}
            return {"type": "place", "card": card["id"], "x": x, "y": y,
                    "rotated": _turned(command, card)}
        move: Move = {"type": "action", "card": card["id"],
                    "target": _seat_named(command.target, view, names)}
        if command.tool is not None:
            move["tool"] = command.tool
        return move
    if verb == "rockfall":
        assert command.cell is not None
        card = _card(view, command.numbers[0])
        return {"type": "rockfall", "card": card["id"], "x": command.cell[0],
                "y": command.cell[1]}
    if verb == "map":
        assert command.goal is not None  # parse_line names the goal or refuses
        return {"type": "map", "card": _card(view, command.numbers[0])["id"],
                "goal": command.goal}
    if verb == "pass":
        ids = [_card(view, n)["id"] for n in command.numbers]
        if view["ruleset"] == "saboteur2":
            return {"type": "pass", "cards": ids}
        if len(ids) > 1:
            raise CommandError("pass_one")
        return {"type": "pass", "card": ids[0] if ids else None}
    if verb == "gold":
        offer = gold_order(view)
        number = command.numbers[0]
        if not 1 <= number <= len(offer):
            raise CommandError("no_such_gold", number=number, size=len(offer))
        return {"type": "pick_gold", "card": offer[number - 1]["id"]}
    if verb == "steal":
        return {"type": "steal", "target": _seat_named(command.target, view, names)}
    if verb == "free":
        if len(command.numbers) != 2:
            raise CommandError("free_two")
        return {"type": "free", "cards": [_card(view, n)["id"] for n in command.numbers],
                "remove": _in_front(command.remove, view)}
    raise CommandError("unknown_command")
