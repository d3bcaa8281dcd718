"""The answer email's words (in the seat's language) and sending it.

The options after a refusal and the examples in a turn email are the seat's legal
moves written as commands (`commands.command_for`); placements are grouped per card.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils.translation import gettext as _

from games.engine.types import JSON
from games.mail.inbound import keywords as kw
from games.mail.inbound.commands import CommandError, command_for, gold_order
from games.mail.inbound.incoming import Incoming
from games.present import describe

log = logging.getLogger("games.inbound")
MAX_OPTIONS = 40
MAX_CELLS = 12

ERRORS: dict[str, Callable[[dict[str, Any]], str]] = {
    "two_moves": lambda p: _("Only one move per email, please."),
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
}


def command_error(error: CommandError) -> str:
    sentence = ERRORS.get(error.code)
    return sentence(error.params) if sentence else _("That command is not known.")


def _legal_lines(view: JSON, legal: list[JSON], names: dict[int, str], language: str,
                 full: bool) -> list[str]:
    """Legal moves as commands; placements grouped per card. `full`: every option (up
    to MAX_OPTIONS lines), else one example of each kind."""
    places: dict[str, list[str]] = {}
    lines: list[str] = []
    seen_kinds: set[str] = set()
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
        result = result[:MAX_OPTIONS] + [_("… and %(n)s more") % {"n": len(result) - MAX_OPTIONS}]
    return result


def options(view: JSON, legal: list[JSON], names: dict[int, str], language: str) -> list[str]:
    return _legal_lines(view, legal, names, language, full=True)


def examples(view: JSON, legal: list[JSON], names: dict[int, str], language: str) -> list[str]:
    say = kw.first(kw.VERBS["say"], language)
    return _legal_lines(view, legal, names, language, full=False) + [
        _("%(say)s Good luck everyone! (a message to the table)") % {"say": say}]


def numbered_hand(view: JSON) -> list[str]:
    return [f"{n}. {describe.card_name(card)}" for n, card in enumerate(view.get("hand") or [], 1)]


def numbered_gold(view: JSON) -> list[str]:
    return [f"{n}. {describe.plural_nuggets(int(card['value']))}"
            for n, card in enumerate(gold_order(view), 1)]


def how_to_reply(view: JSON, legal: list[JSON], names: dict[int, str], language: str,
                 with_hand: bool = True) -> list[str]:
    """The part of a turn email (or an answer) that explains the commands. A turn email
    lists the numbered hand itself (`with_hand=False`)."""
    lines = [_("Play by replying to this email: write one command above the quoted text "
               "(English words work too)."), ""]
    if view.get("gold_offer"):
        lines += [_("Gold cards offered:"), *numbered_gold(view), ""]
    elif view.get("hand") and with_hand:
        lines += [_("Your hand:"), *numbered_hand(view), ""]
    if legal:
        lines += [_("For example:"), *(f"  {line}" for line in examples(view, legal, names,
                                                                           language))]
    return lines


def send(to: str, incoming: Incoming, lines: list[str], reply_to: str | None) -> None:
    """Send the answer once the transaction commits (never in the middle of a move)."""
    subject = incoming.subject if incoming.subject.lower().startswith("re:") \
        else f"Re: {incoming.subject}".strip()
    headers = {"Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All"}
    if incoming.message_id:
        headers["In-Reply-To"] = headers["References"] = incoming.message_id
    message = EmailMessage(subject=subject or "Saboteur", body="\n".join(lines).strip() + "\n",
                           from_email=settings.DEFAULT_FROM_EMAIL, to=[to], headers=headers,
                           reply_to=[reply_to] if reply_to else None)

    def deliver() -> None:
        try:
            message.send()
        except Exception:  # the move stands; a lost answer must not undo it
            log.exception("the answer to an inbound email could not be sent")

    transaction.on_commit(deliver)
