"""How to reply with a move, in the reader's language: the part of a turn email (and of
an answer to an email move) that explains the commands with the seat's own hand.

The options after a refusal and the examples in a turn email are the seat's legal
moves written as commands (`move_commands.command_for`); placements are grouped per card.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.types import Move, SeatView
from games.seatview.core import command_words as kw
from games.seatview.core import describe
from games.seatview.core.move_commands import command_for, gold_order
from games.seatview.core.words import symmetric

MAX_OPTIONS = 40
MAX_CELLS = 12

# Action cards a player plays on someone else, or on themselves: an example breaks
# another player's tool and mends the reader's own, never the other way round.
HELPFUL = {"repair", "free_at_last"}


def _example_rank(move: Move, view: SeatView) -> tuple[int, ...]:
    """How good an example a move makes (smaller first): a placement towards the goals,
    an action card aimed as a player would aim it, a rockfall clearing a dead end."""
    kind = move.get("type")
    if kind == "place":
        return (-int(move["x"]), abs(int(move["y"])))
    if kind == "action":
        hand = {card["id"]: card for card in view.get("hand") or []}
        action = (hand.get(str(move.get("card"))) or {}).get("action")
        on_me = move.get("target") == view.get("seat")
        return (0 if on_me == (action in HELPFUL) else 1,)
    if kind == "rockfall":
        board = {(c["x"], c["y"]): c["card"] for c in view.get("board") or []}
        removed = board.get((move["x"], move["y"])) or {}
        return (0 if removed.get("dead_end") else 1,)
    return (0,)


def _legal_lines(view: SeatView, legal: list[Move], names: dict[int, str], language: str,
                 *, full: bool) -> list[str]:
    """Legal moves as commands; placements grouped per card. `full`: every option (up
    to MAX_OPTIONS lines), else one example of each kind."""
    places: dict[str, list[str]] = {}
    lines: list[str] = []
    seen_kinds: set[str] = set()
    hand = {card["id"]: card for card in view.get("hand") or []}
    # A straight tunnel or a crossroads turned round is the same card: offered once.
    legal = [m for m in legal if not (m["type"] == "place" and m.get("rotated")
                                      and symmetric(hand.get(m.get("card") or "") or {}))]
    if not full:  # one example of each kind: the one a player would make (stable order)
        order = {kind: i for i, kind in reversed(list(enumerate(m["type"] for m in legal)))}
        legal = sorted(legal, key=lambda move: (order[move["type"]],
                                                _example_rank(move, view)))
    for move in legal:
        kind = move["type"]
        if kind == "pass" and len(move.get("cards") or []) > 1 and (full or kind in seen_kinds):
            continue  # passing several cards: shown once, as an example
        if kind == "place" and full:
            prefix = command_for({**move, "x": 0, "y": 0, "rotated": False}, view, names,
                                 language).rsplit(" ", 1)[0]
            cell = f"{move['x']},{move['y']}"
            if move.get("rotated"):
                cell += f" {kw.first(kw.TURNED, language)}"
            places.setdefault(prefix, []).append(cell)
            continue
        key = kind + ("t" if move.get("rotated") else "")
        if not full and key in seen_kinds:
            continue
        seen_kinds.add(key)
        lines.append(command_for(move, view, names, language))
    grouped = []
    for prefix, cells in places.items():
        shown = " · ".join(cells[:MAX_CELLS])
        more = len(cells) - MAX_CELLS
        grouped.append(f"{prefix} {shown}" + (f" (+{more})" if more > 0 else ""))
    result = grouped + lines
    if len(result) > MAX_OPTIONS:
        result = [*result[:MAX_OPTIONS], _("… and %(n)s more") % {"n": len(result) - MAX_OPTIONS}]
    return result


def options(view: SeatView, legal: list[Move], names: dict[int, str], language: str) -> list[str]:
    return _legal_lines(view, legal, names, language, full=True)


def examples(view: SeatView, legal: list[Move], names: dict[int, str], language: str) -> list[str]:
    say = kw.first(kw.VERBS["say"], language)
    example = _("%(say)s Good luck everyone! (a message to the table)") % {"say": say}
    return [*_legal_lines(view, legal, names, language, full=False), example]


def numbered_hand(view: SeatView) -> list[str]:
    return [f"{n}. {describe.card_name(card)}" for n, card in enumerate(view.get("hand") or [], 1)]


def numbered_gold(view: SeatView) -> list[str]:
    return [f"{n}. {describe.plural_nuggets(int(card['value']))}"
            for n, card in enumerate(gold_order(view), 1)]


def how_to_reply(view: SeatView, legal: list[Move], names: dict[int, str], language: str,
                 *, with_hand: bool = True) -> list[str]:
    """The part of a turn email (or an answer) that explains the commands. A turn email
    lists the numbered hand itself (`with_hand=False`)."""
    intro = _("Play by replying to this email: write one command above the quoted text.")
    if language != "en":
        intro += " " + _("English words work too.")
    lines = [intro, ""]
    if view.get("gold_offer"):
        lines += [_("Gold cards offered:"), *numbered_gold(view), ""]
    elif view.get("hand") and with_hand:
        lines += [_("Your hand:"), *numbered_hand(view), ""]
    if legal:
        lines += [_("For example:"), *(f"  {line}" for line in examples(view, legal, names,
                                                                           language))]
    return lines
